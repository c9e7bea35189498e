package io.seatlock.bench;

import com.zaxxer.hikari.HikariDataSource;
import io.lettuce.core.RedisURI;
import io.seatlock.localservers.OwnedRedis;
import io.seatlock.localservers.RedisServer;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.postgres.PostgresLock;
import io.seatlock.lock.postgres.PostgresLockSettings;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.redis.lettuce.LettuceTransport;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * A crowd on one name: W threads spread over 10 clients (ten replicas in one JVM, each with connections of its own),
 * each looping acquire (waiting up to 10 s), hold 1 ms, release, for a fixed time per W. For each lock: hand-overs per
 * second, each acquire's wait (p50, p99, max), what the store did per hand-over (Redis: commands and server CPU from
 * {@code INFO} on a Redis of the benchmark's own; PostgreSQL: transactions from {@code pg_stat_database} and the CPU of
 * every PostgreSQL process), and the fewest and most acquires of one thread (threads that never got it are starved).
 */
final class Herd {

    static final int CLIENTS = 10;
    /** Connections per client on PostgreSQL: ten clients stay well within the server's 100. */
    private static final int POOL = 6;
    private static final String NAME = "herd:one";
    private static final Duration TTL = Duration.ofSeconds(10);
    private static final Duration MAX_WAIT = Duration.ofSeconds(10);
    private static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** One replica's way to take and give back the name; a thread of it calls both. */
    interface Client extends AutoCloseable {
        /** @return how to give it back, or null if the wait ran out */
        Runnable acquire() throws Exception;
    }

    /** What a store counts, read before and after a round. */
    interface StoreMeter {
        /** @return {commands or transactions, CPU microseconds} so far */
        long[] read() throws Exception;
    }

    record Row(String lock, int waiters, double handOversPerSecond, double p50Ms, double p99Ms, double maxMs,
               double opsPerHandOver, double cpuMicrosPerHandOver, int minAcquires, int maxAcquires, int starved) {
        String markdown() {
            return String.format(Locale.ROOT, "| %s | %d | %.0f | %.2f / %.2f / %.0f | %.1f | %.0f | %d-%d | %d |%n", lock,
                    waiters, handOversPerSecond, p50Ms, p99Ms, maxMs, opsPerHandOver, cpuMicrosPerHandOver, minAcquires,
                    maxAcquires, starved);
        }
    }

    private Herd() {
    }

    static Row round(String lock, List<? extends Client> clients, StoreMeter meter, int waiters, Duration length)
            throws Exception {
        AtomicBoolean counting = new AtomicBoolean(false);
        AtomicBoolean stop = new AtomicBoolean(false);
        int[] acquires = new int[waiters];
        List<long[]> waits = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            waits.add(new long[16]);
        }
        int[] waitCounts = new int[waiters];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            int me = i;
            Client client = clients.get(i % clients.size());
            Thread thread = new Thread(() -> {
                while (!stop.get()) {
                    long asked = System.nanoTime();
                    Runnable release;
                    try {
                        release = client.acquire();
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        if (stop.get()) {
                            return;
                        }
                        throw new IllegalStateException(e);
                    }
                    if (release == null) {
                        continue;
                    }
                    long waited = System.nanoTime() - asked;
                    LockSupport.parkNanos(HOLD_NANOS);
                    release.run();
                    if (counting.get() && !stop.get()) {
                        acquires[me]++;
                        long[] mine = waits.get(me);
                        if (waitCounts[me] == mine.length) {
                            mine = Arrays.copyOf(mine, mine.length * 2);
                            waits.set(me, mine);
                        }
                        mine[waitCounts[me]++] = waited;
                    }
                }
            }, "herd-" + i);
            threads.add(thread);
            thread.start();
        }
        Thread.sleep(2_000); // everyone waiting, the JIT warm
        long[] before = meter.read();
        counting.set(true);
        long started = System.nanoTime();
        Thread.sleep(length.toMillis());
        stop.set(true);
        double seconds = (System.nanoTime() - started) / 1e9;
        long[] after = meter.read();
        for (Thread thread : threads) {
            thread.interrupt();
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        long total = Arrays.stream(acquires).sum();
        long[] all = new long[(int) total];
        int at = 0;
        for (int i = 0; i < waiters; i++) {
            System.arraycopy(waits.get(i), 0, all, at, waitCounts[i]);
            at += waitCounts[i];
        }
        Arrays.sort(all);
        int min = Arrays.stream(acquires).min().orElse(0);
        int max = Arrays.stream(acquires).max().orElse(0);
        int starved = (int) Arrays.stream(acquires).filter(n -> n == 0).count();
        double handOvers = Math.max(1, total);
        return new Row(lock, waiters, total / seconds, ms(all, 0.5), ms(all, 0.99), all.length == 0 ? 0 : all[all.length - 1] / 1e6,
                (after[0] - before[0]) / handOvers, (after[1] - before[1]) / handOvers, min, max, starved);
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted.length == 0 ? 0 : sorted[Math.max(0, (int) Math.ceil(sorted.length * quantile) - 1)] / 1e6;
    }

    /** The whole herd: every lock at 1, 10, 100 and 500 waiters, in one run. */
    static String run(Duration length) throws Exception {
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%d clients in one JVM, each with connections of its "
                + "own; W threads spread over them loop acquire (waiting up to %d s), hold 1 ms, release on one name, %d s "
                + "counted per W after 2 s uncounted. Store ops: Redis commands (all of them, from `INFO commandstats` of a "
                + "Redis of the benchmark's own) or PostgreSQL transactions (`pg_stat_database`); store CPU: Redis' "
                + "`used_cpu_user` + `used_cpu_sys`, or the CPU time of every PostgreSQL process.%n%n"
                + "| lock | waiters | hand-overs/s | wait p50 / p99 / max ms | store ops per hand-over | store CPU µs per "
                + "hand-over | acquires per thread (min-max) | starved threads |%n|---|---|---|---|---|---|---|---|%n",
                CLIENTS, MAX_WAIT.toSeconds(), length.toSeconds()));
        try (OwnedRedis redis = new OwnedRedis()) {
            RedisServer server = redis.server();
            StoreMeter redisMeter = () -> new long[] {server.commandCalls().values().stream().mapToLong(Long::longValue).sum(),
                    redisCpuMicros(server)};
            crowds(md, "seatlock `RedisLockClient` (Lettuce)", () -> seatlockRedis(server, false), redisMeter, length);
            crowds(md, "seatlock `RedisLockClient` in order (`acquireInOrder`)", () -> seatlockRedis(server, true),
                    redisMeter, length);
            crowds(md, "Redisson `RLock`", () -> redisson(server, false), redisMeter, length);
            crowds(md, "Redisson `RFairLock`", () -> redisson(server, true), redisMeter, length);
        }
        StoreMeter postgresMeter = Herd::postgresCounters;
        crowds(md, "seatlock `PostgresLock`", Herd::seatlockPostgres, postgresMeter, length);
        crowds(md, "Spring Integration `JdbcLockRegistry`", Herd::springIntegration, postgresMeter, length);
        return md.toString();
    }

    /** Ten fresh clients of one lock. */
    interface Clients {
        List<Client> make() throws Exception;
    }

    /** One lock at each crowd size, on clients made anew for each. */
    private static void crowds(StringBuilder md, String lock, Clients make, StoreMeter meter, Duration length)
            throws Exception {
        for (int waiters : new int[] {1, 10, 100, 500}) {
            List<Client> clients = make.make();
            try {
                md.append(round(lock, clients, meter, waiters, length).markdown());
            } finally {
                closeAll(clients);
            }
        }
    }

    private static void closeAll(List<? extends Client> clients) throws Exception {
        for (Client client : clients) {
            client.close();
        }
    }

    private static long redisCpuMicros(RedisServer server) {
        String info = server.with(r -> r.info("cpu"));
        double seconds = 0;
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return (long) (seconds * 1e6);
    }

    private static List<Client> seatlockRedis(RedisServer server, boolean inOrder) {
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            RedisLockClient lock = RedisLockClient.over(LettuceTransport.standalone(
                            RedisURI.create("redis://" + server.host() + ":" + server.port()), RedisTimeouts.of(Duration.ofSeconds(2))),
                    RedisLockSettings.defaults().withKeyPrefix("herd:").withInstanceId("client-" + i), LockListener.NOOP);
            clients.add(seatlock(inOrder ? lock::acquireInOrder : lock::acquire, lock::close));
        }
        return clients;
    }

    private static List<Client> seatlockPostgres() {
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            HikariDataSource pool = PostgresRoundTrip.pool("herd-" + i, POOL);
            PostgresLock lock = PostgresLock.over(pool, PostgresLockSettings.defaults().withInstanceId("client-" + i),
                    LockListener.NOOP);
            lock.createTable();
            clients.add(seatlock(lock::acquire, () -> {
                lock.close();
                pool.close();
            }));
        }
        return clients;
    }

    /** seatlock's blocking acquire, either store's. */
    interface BlockingAcquire {
        LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait) throws InterruptedException;
    }

    private static Client seatlock(BlockingAcquire lock, Runnable close) {
        return new Client() {
            public Runnable acquire() throws InterruptedException {
                try {
                    LockLease lease = lock.acquire(NAME, TTL, OverlapImpact.WASTED_WORK, MAX_WAIT);
                    return lease::release;
                } catch (io.seatlock.lock.LockNotAcquiredException timedOut) {
                    return null;
                }
            }

            public void close() {
                close.run();
            }
        };
    }

    private static List<Client> redisson(RedisServer server, boolean fair) {
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            Config config = new Config();
            config.useSingleServer().setAddress("redis://" + server.host() + ":" + server.port())
                    .setConnectionPoolSize(64).setConnectionMinimumIdleSize(4);
            RedissonClient redisson = Redisson.create(config);
            RLock lock = fair ? redisson.getFairLock(NAME) : redisson.getLock(NAME);
            clients.add(new Client() {
                public Runnable acquire() throws InterruptedException {
                    return lock.tryLock(MAX_WAIT.toMillis(), TTL.toMillis(), TimeUnit.MILLISECONDS) ? lock::unlock : null;
                }

                public void close() {
                    redisson.shutdown();
                }
            });
        }
        return clients;
    }

    private static List<Client> springIntegration() throws Exception {
        PostgresRoundTrip.create(PostgresRoundTrip.Impl.SPRING_INTEGRATION_JDBC).close(); // its table
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            HikariDataSource pool = PostgresRoundTrip.pool("herd-si-" + i, POOL);
            DefaultLockRepository repository = new DefaultLockRepository(pool, "client-" + i);
            repository.setRegion("herd");
            repository.setTransactionManager(new DataSourceTransactionManager(pool));
            repository.afterPropertiesSet();
            repository.afterSingletonsInstantiated();
            JdbcLockRegistry registry = new JdbcLockRegistry(repository, TTL);
            Lock lock = registry.obtain(NAME);
            clients.add(new Client() {
                public Runnable acquire() throws InterruptedException {
                    return lock.tryLock(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS) ? lock::unlock : null;
                }

                public void close() {
                    pool.close();
                }
            });
        }
        return clients;
    }

    /** Transactions of the benchmark's database, and the CPU time of every PostgreSQL process on this machine. */
    private static long[] postgresCounters() throws Exception {
        HikariDataSource pool = PostgresRoundTrip.pool("herd-meter", 1);
        try {
            Thread.sleep(1_500); // other backends report their counts about once a second
            JdbcTemplate db = new JdbcTemplate(pool);
            Long transactions = db.queryForObject("SELECT xact_commit + xact_rollback FROM pg_stat_database "
                    + "WHERE datname = current_database()", Long.class);
            return new long[] {transactions == null ? 0 : transactions, postgresCpuMicros()};
        } finally {
            pool.close();
        }
    }

    private static long postgresCpuMicros() throws Exception {
        long ticks = 0;
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : processes.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                try {
                    if (!Files.readString(process.resolve("comm")).trim().equals("postgres")) {
                        continue;
                    }
                    String stat = Files.readString(process.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
                } catch (java.io.IOException gone) {
                    // a backend that ended between the listing and the read
                }
            }
        }
        return ticks * 10_000; // 100 ticks a second
    }
}
