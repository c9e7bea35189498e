package io.seatlock.bench;

import io.seatlock.localservers.LocalServers;
import io.seatlock.localservers.PostgresServer;
import io.seatlock.localservers.RedisServer;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.seats.SeatsApplication;
import io.seatlock.seats.booking.SeatId;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import one.profiler.AsyncProfiler;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * The on-sale load driver: two app-seats instances in this JVM on one PostgreSQL and one Redis, a crowd
 * of buyers, bouncer on and off. Measures requests/s, winners' and losers' latency, the PostgreSQL
 * work (connection checkouts, i.e. transactions, and row-lock waiters) and Redis commands.
 */
final class OnSale implements AutoCloseable {

    record Result(String scenario, String bouncer, int requests, double requestsPerSecond, int winners,
                  double winnerP50, double winnerP99, double loserP50, double loserP99, long pgTransactions,
                  int maxRowLockWaiters, long redisCommands) {
        String row() {
            return String.format(Locale.ROOT, "| %s | %s | %d | %.0f | %d | %.1f / %.1f | %.1f / %.1f | %d | %d | %d |",
                    scenario, bouncer, requests, requestsPerSecond, winners, winnerP50, winnerP99, loserP50, loserP99,
                    pgTransactions, maxRowLockWaiters, redisCommands);
        }
    }

    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final PostgresServer pg = LocalServers.postgres();
    private final RedisServer redis = LocalServers.redis();
    private final String database = "seatlock_bench_onsale";
    private final JdbcClient db;
    private final List<ConfigurableApplicationContext> apps = new ArrayList<>();
    private final boolean bouncer;

    OnSale(boolean bouncer) {
        this.bouncer = bouncer;
        pg.dropDatabase(database);
        pg.ensureDatabase(database);
        db = JdbcClient.create(pg.dataSource(database));
        for (String name : List.of("onsale-a", "onsale-b")) {
            apps.add(new SpringApplicationBuilder(SeatsApplication.class).logStartupInfo(false).run(
                    "--server.port=0", "--spring.main.banner-mode=off", "--logging.level.root=WARN",
                    "--spring.datasource.url=" + pg.jdbcUrl(database), "--spring.datasource.username=" + pg.user(),
                    "--spring.datasource.password=" + pg.password(), "--spring.datasource.hikari.maximum-pool-size=20",
                    "--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
                    "--seatlock.lock.key-prefix=bench-onsale:", "--seatlock.lock.instance-id=" + name,
                    "--seats.bouncer-enabled=" + bouncer, "--seats.relay.interval=1h",
                    "--server.tomcat.threads.max=100"));
        }
    }

    /** Warms both JVMs (JIT, pools, connections) on the demo event before anything is measured. */
    void warmUp() throws Exception {
        eventWithSeats(400);
        run("warm-up", 3000, i -> (i % 20 + 1) + String.valueOf((char) ('A' + i % 20)));
    }

    /** Seats 1..n in rows A..T become a fresh event {@code big}; returns labels. */
    List<String> eventWithSeats(int seats) {
        db.sql("DELETE FROM email_outbox").update();
        db.sql("DELETE FROM bookings").update();
        db.sql("DELETE FROM seats WHERE event_id = 'big'").update();
        redis.deleteKeys("bench-onsale:decided:");
        db.sql("INSERT INTO events (id, name, starts_at) VALUES ('big', 'Stadium', now()) ON CONFLICT DO NOTHING").update();
        int perRow = Math.max(1, (seats + 19) / 20);
        db.sql("INSERT INTO seats (event_id, label) SELECT 'big', n || chr(64 + r) FROM generate_series(1, 20) r, "
                + "generate_series(1, ?) n LIMIT ?").params(perRow, seats).update();
        db.sql("VACUUM ANALYZE seats").update();
        return db.sql("SELECT label FROM seats WHERE event_id = 'big'").query(String.class).list();
    }

    Result run(String scenario, int buyers, IntFunction<String> seatOf) throws Exception {
        long txBefore = checkouts();
        long redisBefore = redisCommands();
        ExecutorService pool = Executors.newFixedThreadPool(64);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger maxWaiters = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (running.get()) {
                int waiting = db.sql("SELECT count(*) FROM pg_locks WHERE NOT granted AND locktype IN ('transactionid', 'tuple')")
                        .query(Integer.class).single();
                maxWaiters.accumulateAndGet(waiting, Math::max);
            }
        });
        List<Future<long[]>> calls = new ArrayList<>();
        for (int i = 0; i < buyers; i++) {
            int buyer = i;
            int port = port(apps.get(i % 2));
            calls.add(pool.submit(() -> {
                go.await();
                long start = System.nanoTime();
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                                + "/api/events/big/seats/" + seatOf.apply(buyer) + "/booking"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"buyer\":\"b" + buyer + "@example.com\",\"name\":\"B\"}"))
                        .build(), HttpResponse.BodyHandlers.discarding());
                return new long[] {r.statusCode(), System.nanoTime() - start};
            }));
        }
        sampler.start();
        long t0 = System.nanoTime();
        go.countDown();
        List<Long> winners = new ArrayList<>();
        List<Long> losers = new ArrayList<>();
        for (Future<long[]> f : calls) {
            long[] r = f.get();
            (r[0] == 201 ? winners : losers).add(r[1]);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        running.set(false);
        sampler.join();
        pool.shutdown();
        return new Result(scenario, bouncer ? "on" : "off", buyers, buyers / seconds, winners.size(),
                pct(winners, 50), pct(winners, 99), pct(losers, 50), pct(losers, 99), checkouts() - txBefore,
                maxWaiters.get(), redisCommands() - redisBefore);
    }

    /** An on-sale crowd watching the map: simulated pages, spread evenly over both replicas. Stops when closed. */
    interface Crowd extends AutoCloseable {
        /** Views answered (polling), or maps received (streaming). */
        long answered();

        /** Views that failed (polling), or streams that ended or failed (streaming). */
        long failed();

        /** Views answered 304 Not Modified (polling only). */
        long notModified();

        @Override
        void close() throws InterruptedException;
    }

    /** Streaming, as the page does: each of {@code viewers} gets the map pushed (server-sent events, {@link StreamingViews}). */
    private final class StreamingCrowd implements Crowd {
        private final StreamingViews streams;

        StreamingCrowd(int viewers) throws IOException {
            streams = new StreamingViews(apps.stream().map(app -> new InetSocketAddress("127.0.0.1", port(app))).toList(),
                    "/api/events/big/seats/stream", viewers, CROWD_THREAD);
        }

        @Override
        public long answered() {
            return streams.maps();
        }

        @Override
        public long failed() {
            return streams.ended();
        }

        @Override
        public long notModified() {
            return 0;
        }

        @Override
        public void close() throws InterruptedException {
            streams.close();
        }
    }

    /**
     * Polling, as the page does where the replica will not stream to it: each of {@code viewers} asks for the event's
     * seats every 2 s, spread evenly over time, sending back the ETag of the map it has as the browser's cache does
     * (unless {@link #SEND_ETAGS} is off) and counting a 304 as an answer. The views go out from a fixed pool of page
     * threads over kept-alive connections ({@link KeepAliveViews}).
     */
    private final class PollingCrowd implements Crowd {
        private static final int PAGE_THREADS = 64;
        private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor();
        private final ExecutorService pages = Executors.newFixedThreadPool(PAGE_THREADS, r -> new Thread(r, CROWD_THREAD));
        private final List<KeepAliveViews> replicas = new ArrayList<>();
        private final AtomicLong answered = new AtomicLong();
        private final AtomicLong notModified = new AtomicLong();
        private final AtomicLong failed = new AtomicLong();

        PollingCrowd(int viewers) {
            for (ConfigurableApplicationContext app : apps) {
                replicas.add(new KeepAliveViews("127.0.0.1", port(app), PAGE_THREADS, 10_000));
            }
            long everyMicros = 2_000_000L / viewers;
            AtomicReferenceArray<String> etags = new AtomicReferenceArray<>(viewers);
            AtomicLong n = new AtomicLong();
            ticks.scheduleAtFixedRate(() -> {
                long tick = n.incrementAndGet();
                int viewer = (int) (tick % viewers);
                KeepAliveViews replica = replicas.get((int) (tick % replicas.size()));
                pages.execute(() -> {
                    try {
                        KeepAliveViews.Answer r = replica.get("/api/events/big/seats",
                                SEND_ETAGS ? etags.get(viewer) : null);
                        if (r.status() == 200) {
                            etags.set(viewer, r.etag());
                            answered.incrementAndGet();
                        } else if (r.status() == 304) {
                            notModified.incrementAndGet();
                            answered.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                        }
                    } catch (IOException e) {
                        failed.incrementAndGet();
                    }
                });
            }, 0, everyMicros, TimeUnit.MICROSECONDS);
        }

        @Override
        public long notModified() {
            return notModified.get();
        }

        @Override
        public long answered() {
            return answered.get();
        }

        @Override
        public long failed() {
            return failed.get();
        }

        @Override
        public void close() throws InterruptedException {
            ticks.shutdownNow();
            pages.shutdownNow();
            pages.awaitTermination(30, TimeUnit.SECONDS);
            replicas.forEach(KeepAliveViews::close);
        }
    }

    Crowd crowd(int viewers, boolean streaming) throws IOException {
        return streaming ? new StreamingCrowd(viewers) : new PollingCrowd(viewers);
    }

    /**
     * What the crowd alone costs over {@code seconds} while the map keeps changing (a seat held for 1 s every 250 ms,
     * as someone starts booking it): Redis commands and PostgreSQL transactions per viewer-second,
     * views answered per second, failures, the cores this JVM (both replicas and the crowd) used, the whole
     * machine's CPU load (0-1) and core count, the cores the replicas' Tomcat threads and the crowd's page threads used,
     * and the share of answers that were 304 Not Modified. Rates are over the time measured, not the time asked for.
     */
    double[] crowdCost(int viewers, int seconds, boolean streaming) throws Exception {
        try (Crowd crowd = crowd(viewers, streaming)) {
            Thread.sleep(2000); // the first views fill the snapshots
            long redisBefore = redisCommands();
            long txBefore = checkouts();
            long answeredBefore = crowd.answered();
            long notModifiedBefore = crowd.notModified();
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpuBefore = os.getProcessCpuTime();
            Map<String, Long> threadsBefore = cpuByThreadGroup();
            long started = System.nanoTime();
            long[] machineBefore = machineCpuTicks();
            DistributedLock someoneBooking = apps.get(0).getBean(DistributedLock.class);
            try (AutoCloseable profile = profileTo(System.getProperty("bench.crowd.profile"))) {
                for (int held = 0; System.nanoTime() - started < TimeUnit.SECONDS.toNanos(seconds); held++) {
                    someoneBooking.tryAcquire(new SeatId("big", (held % 20 + 1) + "A").lockName(), Duration.ofSeconds(1),
                            OverlapImpact.BROKEN_PROMISE);
                    Thread.sleep(250);
                }
            }
            double elapsed = (System.nanoTime() - started) / 1e9;
            double viewerSeconds = viewers * elapsed;
            Map<String, Long> threadsAfter = cpuByThreadGroup();
            long answered = crowd.answered() - answeredBefore;
            return new double[] {(redisCommands() - redisBefore) / viewerSeconds, (checkouts() - txBefore) / viewerSeconds,
                    answered / elapsed, crowd.failed(), (os.getProcessCpuTime() - cpuBefore) / 1e9 / elapsed,
                    busyShare(machineBefore, machineCpuTicks()), os.getAvailableProcessors(),
                    (threadsAfter.getOrDefault(SERVER, 0L) - threadsBefore.getOrDefault(SERVER, 0L)) / 1e9 / elapsed,
                    (threadsAfter.getOrDefault(CLIENT, 0L) - threadsBefore.getOrDefault(CLIENT, 0L)) / 1e9 / elapsed,
                    (crowd.notModified() - notModifiedBefore) / (double) Math.max(1, answered)};
        }
    }

    /**
     * With {@code -Dbench.crowd.profile=file.txt}: a CPU profile of the crowd alone (async-profiler, collapsed
     * stacks per thread), written when closed.
     */
    private static AutoCloseable profileTo(String file) throws Exception {
        if (file == null) {
            return () -> { };
        }
        AsyncProfiler profiler = AsyncProfiler.getInstance();
        profiler.execute("start,event=cpu,interval=1ms,threads");
        return () -> profiler.execute("stop,file=" + Path.of(file).toAbsolutePath() + ",collapsed");
    }

    /** All CPUs' busy and total ticks from /proc/stat: the whole machine, whatever container quota the JVM sees. */
    private static long[] machineCpuTicks() throws IOException {
        String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i <= 8; i++) { // user .. steal; guest time is counted in user already
            total += Long.parseLong(cpu[i]);
        }
        long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]); // idle + iowait
        return new long[] {total - idle, total};
    }

    private static double busyShare(long[] before, long[] after) {
        return (after[0] - before[0]) / (double) Math.max(1, after[1] - before[1]);
    }

    /** {@code -Dbench.crowd.etags=false}: polling viewers never send If-None-Match, so every view is a 200 with the map. */
    static final boolean SEND_ETAGS = Boolean.parseBoolean(System.getProperty("bench.crowd.etags", "true"));

    private static final String SERVER = "the replicas' Tomcat threads and map pushes";
    /** app-seats' thread that pushes the map to streaming pages. */
    private static final String PUSH_THREAD = "seat-map-push";
    private static final String CLIENT = "the crowd's page threads";
    private static final String CROWD_THREAD = "crowd-page";

    /** CPU time of live threads so far: Tomcat's (request threads and pollers, both replicas), the crowd's page threads, the rest. */
    private static Map<String, Long> cpuByThreadGroup() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> cpu = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            long nanos = info == null ? -1 : threads.getThreadCpuTime(info.getThreadId());
            if (nanos > 0) {
                String name = info.getThreadName();
                String group = name.startsWith("http-nio") || name.equals(PUSH_THREAD) ? SERVER
                        : name.equals(CROWD_THREAD) ? CLIENT : "other";
                cpu.merge(group, nanos, Long::sum);
            }
        }
        return cpu;
    }

    static IntFunction<String> randomSeat(List<String> seats, long seed) {
        Random random = new Random(seed);
        String[] chosen = new String[1_000_000];
        Arrays.setAll(chosen, i -> seats.get(random.nextInt(seats.size())));
        return i -> chosen[i];
    }

    /** Connection checkouts from both apps' pools: one per PostgreSQL transaction the booking path runs. */
    private long checkouts() {
        return apps.stream().mapToLong(a -> {
            var timer = a.getBean(io.micrometer.core.instrument.MeterRegistry.class).find("hikaricp.connections.usage").timer();
            return timer == null ? 0 : timer.count();
        }).sum();
    }

    private long redisCommands() {
        String info = redis.with(r -> r.info("stats"));
        return info.lines().filter(l -> l.startsWith("total_commands_processed:"))
                .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim())).findFirst().orElse(0);
    }

    private static int port(ConfigurableApplicationContext app) {
        return Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
    }

    private static double pct(List<Long> nanos, int p) {
        if (nanos.isEmpty()) {
            return 0;
        }
        long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1e6;
    }

    @Override
    public void close() {
        apps.forEach(ConfigurableApplicationContext::close);
        redis.deleteKeys("bench-onsale:");
        pg.dropDatabase(database);
    }
}
