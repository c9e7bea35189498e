package io.seatlock.seats.faults;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.lettuce.core.api.sync.RedisCommands;
import io.seatlock.localservers.ChildJvm;
import io.seatlock.test.FaultProxy;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.localservers.OwnedRedis;
import io.seatlock.seats.SeatsApplication;
import io.seatlock.seats.UnguardedReferee;
import io.seatlock.seats.SeatsDatabase;
import io.seatlock.seats.SeatsReplica;
import io.seatlock.seats.booking.BookingService;
import io.seatlock.test.Pause;
import io.seatlock.test.Pauses;
import io.seatlock.lock.DistributedLock;
import jakarta.mail.internet.MimeMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Randomized booking runs under one fault each, with real servers, then a history check against the
 * data. The seed is printed; rerun one with {@code -Dfaults.seed=<seed>}. Loopback only, bounded.
 */
class BookingFaultIT {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("BookingFaultIT");

    @RegisterExtension
    final Pauses pauses = new Pauses();

    private static final int OPS = 300;
    private static final long SEED = Long.getLong("faults.seed", System.nanoTime());
    private static final GreenMail mail = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static OwnedRedis redis;
    private static FaultProxy redisProxy;
    private static SeatsReplica a;
    private static SeatsReplica b;
    private final SeatsDatabase db = new SeatsDatabase(servers);

    enum Fault { FLUSHALL, SCRIPT_FLUSH, CLIENT_KILL, REDIS_RESTART, REDIS_BLACKHOLE, PG_TERMINATE_BACKENDS, PROCESS_PAUSE }

    @BeforeAll
    static void start() throws Exception {
        System.out.println("BookingFaultIT seed = " + SEED + " (rerun with -Dfaults.seed=" + SEED + ")");
        mail.start();
        redis = new OwnedRedis();
        redisProxy = new FaultProxy("127.0.0.1", redis.port());
        a = SeatsReplica.start("fault-a", servers, mail.getSmtp().getPort(), appProperties());
        b = SeatsReplica.start("fault-b", servers, mail.getSmtp().getPort(), appProperties());
    }

    private static Map<String, String> appProperties() {
        Map<String, String> p = new HashMap<>();
        p.put("spring.data.redis.port", Integer.toString(redisProxy.port()));
        p.put("seats.hold-ttl", "500ms");
        p.put("seatlock.lock.command-timeout", "300ms");
        p.put("spring.datasource.hikari.connection-timeout", "2000");
        // A confirmation sent but not marked sent (its connection terminated) goes out again once its claim ends:
        // a claim shorter than the default minute, still far longer than one send to the local SMTP server, lets
        // the outbox drain well inside the wait below instead of at its very end.
        p.put("seats.relay.claim-lease", "10s");
        return p;
    }

    @AfterAll
    static void stop() throws Exception {
        a.close();
        b.close();
        redisProxy.close();
        redis.close();
        mail.stop();
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void noPromiseIsBrokenUnder(Fault fault) throws Exception {
        Set<String> seats = seatsFor(fault.ordinal());
        ChildJvm child = null;
        List<IntSupplier> replicas = new ArrayList<>(List.of(() -> port(a), () -> port(b)));
        if (fault == Fault.PROCESS_PAUSE) {
            Map<String, String> p = new HashMap<>(servers.springProperties());
            p.putAll(appProperties());
            p.put("spring.mail.host", "127.0.0.1");
            p.put("spring.mail.port", Integer.toString(mail.getSmtp().getPort()));
            p.put("seatlock.lock.instance-id", "fault-child");
            p.put("seats.relay.interval", "100ms");
            ChildJvm started = new ChildJvm(SeatsApplication.class, p);
            child = started;
            replicas.add(started::port);
        }
        try {
            BookingHistory history = run(fault, seats, replicas, child, new Random(SEED + fault.ordinal()));

            await().atMost(Duration.ofSeconds(60)).until(db::outboxDrained);
            List<String> violations = BookingChecker.check(history, db.jdbc(), "concert", seats, mailKeys());
            System.out.printf("fault %s: %d ok, %d fail, %d unknown%n", fault, history.count(BookingHistory.Outcome.OK),
                    history.count(BookingHistory.Outcome.FAIL), history.count(BookingHistory.Outcome.INFO));
            assertThat(violations).as("seed " + SEED + ", fault " + fault).isEmpty();
            assertThat(history.count(BookingHistory.Outcome.OK)).as("the run made progress").isPositive();
        } finally {
            if (child != null) {
                child.close();
            }
        }
    }

    @Test
    void theCheckerCatchesTheLockAloneDoubleBooking() throws Exception {
        // The deliberately broken variant: no conditional write, and a holder stalled past its lease.
        Pause stallFirstWriter = pauses.holdFirst(BookingService.BEFORE_SEAT_WRITE);
        Map<String, String> props = new HashMap<>(appProperties());
        Set<String> seats = Set.of("20T");
        BookingHistory history = new BookingHistory();
        try (SeatsReplica broken = SeatsReplica.startWith("broken", servers, mail.getSmtp().getPort(), c -> {
            UnguardedReferee.install().accept(c);
        }, props)) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            Future<?> lena = pool.submit(() -> book(history, port(broken), "20T", "broken-lena@example.com"));
            stallFirstWriter.awaitArrival();
            Pauses.awaitExpired(broken.context().getBean(DistributedLock.class), "seat:concert:20T");
            book(history, port(broken), "20T", "broken-omar@example.com");
            stallFirstWriter.open();
            lena.get(10, TimeUnit.SECONDS);
            pool.shutdown();
            await().atMost(Duration.ofSeconds(20)).until(db::outboxDrained);
        }
        List<String> violations = BookingChecker.check(history, db.jdbc(), "concert", seats, mailKeys());
        assertThat(violations).anySatisfy(v -> assertThat(v).contains("seat 20T confirmed to 2 buyers"));
    }

    private BookingHistory run(Fault fault, Set<String> seats, List<IntSupplier> replicas, ChildJvm child,
                               Random random) throws Exception {
        List<String> seatList = new ArrayList<>(seats);
        BookingHistory history = new BookingHistory();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger landed = new AtomicInteger();
        Thread nemesis = new Thread(() -> {
            while (!done.get()) {
                try {
                    inject(fault, child);
                    landed.incrementAndGet();
                } catch (Exception e) {
                    // a fault that fails to inject is itself a fault; keep going (but see the assertion below)
                }
            }
            heal(fault, child);
        }, "nemesis-" + fault);
        ExecutorService clients = Executors.newFixedThreadPool(8);
        List<Future<?>> pending = new ArrayList<>();
        nemesis.start();
        for (int i = 0; i < OPS; i++) {
            String seat = seatList.get(random.nextInt(seatList.size()));
            String buyer = fault.name().toLowerCase() + "-" + i + "@example.com";
            IntSupplier replica = replicas.get(random.nextInt(replicas.size()));
            pending.add(clients.submit(() -> book(history, replica.getAsInt(), seat, buyer)));
        }
        for (Future<?> f : pending) {
            f.get(3, TimeUnit.MINUTES);
        }
        done.set(true);
        nemesis.join(30_000);
        clients.shutdown();
        assertThat(landed.get()).as("faults of kind %s that actually landed during the run", fault).isPositive();
        return history;
    }

    private void inject(Fault fault, ChildJvm child) throws Exception {
        switch (fault) {
            case FLUSHALL -> {
                redis.server().with(RedisCommands::flushall);
                Thread.sleep(150);
            }
            case SCRIPT_FLUSH -> {
                redis.server().with(RedisCommands::scriptFlush);
                Thread.sleep(50);
            }
            case CLIENT_KILL -> {
                redis.server().with(r -> r.clientKill(io.lettuce.core.KillArgs.Builder.typeNormal()));
                Thread.sleep(200);
            }
            case REDIS_RESTART -> {
                redis.restart();
                Thread.sleep(700);
            }
            case REDIS_BLACKHOLE -> {
                redisProxy.blackhole();
                Thread.sleep(400);
                redisProxy.heal();
                Thread.sleep(400);
            }
            case PG_TERMINATE_BACKENDS -> {
                db.jdbc().sql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                        + "WHERE datname = ? AND pid <> pg_backend_pid()").params(servers.database()).query(Long.class).single();
                Thread.sleep(300);
            }
            case PROCESS_PAUSE -> {
                child.pause();
                Thread.sleep(800); // past the 500 ms seat lease
                child.resume();
                Thread.sleep(400);
            }
        }
    }

    private static void heal(Fault fault, ChildJvm child) {
        redisProxy.heal();
        if (fault == Fault.PROCESS_PAUSE && child != null) {
            child.resume();
        }
    }

    private static void book(BookingHistory history, int port, String seat, String buyer) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/api/events/concert/seats/" + seat + "/booking"))
                    .timeout(Duration.ofSeconds(15)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"buyer\":\"" + buyer + "\",\"name\":\"Buyer\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            history.record(seat, buyer, response);
        } catch (Exception e) {
            history.recordUnknown(seat, buyer);
        }
    }

    private static int port(SeatsReplica replica) {
        return replica.uri("/").getPort();
    }

    private static Set<String> seatsFor(int scenario) {
        Set<String> seats = new LinkedHashSet<>();
        for (int row = 0; row < 2; row++) {
            for (int n = 1; n <= 20; n++) {
                seats.add(n + String.valueOf((char) ('A' + 2 * scenario + row)));
            }
        }
        return seats;
    }

    private static Map<String, Set<String>> mailKeys() throws Exception {
        Map<String, Set<String>> keys = new HashMap<>();
        for (MimeMessage m : mail.getReceivedMessages()) {
            String key = m.getHeader("Idempotency-Key", null);
            for (var to : m.getAllRecipients()) {
                keys.computeIfAbsent(to.toString(), k -> new HashSet<>()).add(key);
            }
        }
        return keys;
    }
}
