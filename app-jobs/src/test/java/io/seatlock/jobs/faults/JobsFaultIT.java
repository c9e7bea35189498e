package io.seatlock.jobs.faults;

import io.seatlock.lock.redis.RedisKeys;
import io.lettuce.core.KillArgs;
import io.lettuce.core.api.sync.RedisCommands;
import io.seatlock.jobs.JobsApplication;
import io.seatlock.jobs.JobsReplica;
import io.seatlock.jobs.payments.PaymentCapture;
import io.seatlock.lock.leader.Candidate;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.jobs.PausedLeader;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.localservers.ChildJvm;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.localservers.OwnedRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three app-jobs replicas capture payments slot by slot and their leaders write fenced records, while
 * a nemesis flushes, kills and restarts Redis and terminates PostgreSQL backends. The seed is printed.
 */
class JobsFaultIT {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("JobsFaultIT");

    private static final long SEED = Long.getLong("faults.seed", System.nanoTime());
    private static final List<ConfigurableApplicationContext> replicas = new ArrayList<>();
    private static OwnedRedis redis;
    private static JdbcClient db;

    @BeforeAll
    static void start() throws Exception {
        System.out.println("JobsFaultIT seed = " + SEED + " (rerun with -Dfaults.seed=" + SEED + ")");
        redis = new OwnedRedis();
        db = JdbcClient.create(servers.dataSource());
        for (int i = 1; i <= 3; i++) {
            Map<String, String> p = replicaProperties("fault-jobs-" + i);
            p.put("seatlock.lock.command-timeout", "300ms");
            p.put("seatlock.leader.groups.jobs.lease", "600ms");
            p.put("seatlock.leader.groups.jobs.retry", "50ms");
            p.put("spring.main.web-application-type", "none");
            p.put("spring.datasource.hikari.connection-timeout", "2000");
            replicas.add(JobsReplica.start(p));
        }
    }

    /** An app-jobs replica on this class's database and its own Redis, scheduled jobs off (the test drives them). */
    private static Map<String, String> replicaProperties(String instance) {
        Map<String, String> p = new HashMap<>(servers.springProperties());
        p.put("spring.data.redis.port", Integer.toString(redis.port()));
        p.put("seatlock.lock.instance-id", instance);
        p.put("jobs.report.cron", "-");
        p.put("jobs.payments.cron", "-");
        return p;
    }

    @AfterAll
    static void stop() throws Exception {
        replicas.forEach(ConfigurableApplicationContext::close);
        redis.close();
    }

    @Test
    void jobSlotsRunOncePaymentsAreCapturedOnceAndNoStaleEpochIsAccepted() throws Exception {
        Random random = new Random(SEED);
        Map<Long, List<Integer>> capturedPerSlot = new ConcurrentHashMap<>();
        AtomicLong unknownCalls = new AtomicLong();
        Set<Long> unknownSlots = ConcurrentHashMap.newKeySet();
        Set<String> accepted = ConcurrentHashMap.newKeySet();
        Set<String> rejected = ConcurrentHashMap.newKeySet();
        List<String> errors = new CopyOnWriteArrayList<>();
        AtomicBoolean done = new AtomicBoolean();

        AtomicIntegerArray landed = new AtomicIntegerArray(4);
        Thread nemesis = new Thread(() -> {
            Random faults = new Random(SEED + 1);
            // Every kind once per round, in a random order; a fault that did not land (e.g. Redis still
            // restarting) stays first and is tried again, so even a short run sees each kind.
            List<Integer> round = new ArrayList<>();
            while (!done.get()) {
                if (round.isEmpty()) {
                    round.addAll(List.of(0, 1, 2, 3));
                    Collections.shuffle(round, faults);
                }
                int kind = round.get(0);
                try {
                    switch (kind) {
                        case 0 -> redis.server().with(RedisCommands::flushall);
                        case 1 -> redis.server().with(r -> r.clientKill(KillArgs.Builder.typeNormal()));
                        case 2 -> redis.restart();
                        default -> db.sql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                + "WHERE datname = ? AND pid <> pg_backend_pid()").params(servers.database())
                                .query(Long.class).single();
                    }
                    landed.incrementAndGet(kind);
                    round.remove(0);
                    Thread.sleep(150 + faults.nextInt(250));
                } catch (Exception e) {
                    // keep injecting; the assertion below checks that each kind landed
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            }
        }, "jobs-nemesis");

        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<?>> work = new ArrayList<>();
        nemesis.start();
        for (ConfigurableApplicationContext replica : replicas) {
            PaymentCapture capture = replica.getBean(PaymentCapture.class);
            work.add(pool.submit(() -> {
                for (long slot = 0; slot < 40; slot++) {
                    try {
                        db.sql("INSERT INTO payments (idempotency_key, amount_cents) VALUES (?, 100) ON CONFLICT DO NOTHING")
                                .params("slot-" + slot + "-" + random.nextInt(3)).update();
                    } catch (RuntimeException e) {
                        // the nemesis cut this connection; the payment simply does not exist
                    }
                    try {
                        int n = capture.captureDue(JobsHistoryChecker.slotTime(slot));
                        capturedPerSlot.computeIfAbsent(slot, s -> new CopyOnWriteArrayList<>()).add(n);
                    } catch (RuntimeException e) {
                        unknownCalls.incrementAndGet();
                        unknownSlots.add(slot);
                    }
                    Thread.sleep(20);
                }
                return null;
            }));
            LeaderElection election = replica.getBean(LeaderElections.class).get("jobs");
            work.add(pool.submit(() -> {
                FencingToken lastEpoch = null;
                for (int i = 0; i < 150; i++) {
                    // A paused leader keeps its old epoch and writes late: keep using the last one seen.
                    FencingToken epoch = election.epoch().orElse(lastEpoch);
                    if (epoch != null) {
                        lastEpoch = epoch;
                        String write = epoch.value() + "|" + election.candidate() + "|tick-" + i;
                        try {
                            PausedLeader.write(replica, "jobs", epoch, election.candidate(), "tick-" + i);
                            accepted.add(write);
                        } catch (StaleFencingTokenException e) {
                            rejected.add(write);
                        } catch (RuntimeException e) {
                            errors.add(e.getClass().getSimpleName());
                        }
                    }
                    Thread.sleep(15);
                }
                return null;
            }));
        }
        try {
            for (Future<?> f : work) {
                f.get(3, TimeUnit.MINUTES);
            }
        } finally {
            done.set(true);
            nemesis.join(10_000);
            pool.shutdown();
        }

        List<String> violations = JobsHistoryChecker.check(db, capturedPerSlot, unknownSlots, accepted, rejected);
        System.out.printf("jobs faults: %d slots, %d unknown capture calls, %d accepted and %d rejected leader writes, "
                + "%d other errors%n", capturedPerSlot.size(), unknownCalls.get(), accepted.size(), rejected.size(), errors.size());
        assertThat(violations).as("seed " + SEED).isEmpty();
        for (int kind = 0; kind < landed.length(); kind++) {
            assertThat(landed.get(kind)).as("fault kind %d (flushall, client kill, restart, terminate) landed", kind)
                    .isPositive();
        }
        assertThat(accepted).as("leaders made progress").isNotEmpty();
        assertThat(capturedPerSlot).as("jobs made progress").isNotEmpty();
    }

    @Test
    void theCheckerCatchesACaptureNoCallerWasToldAbout() {
        db.sql("INSERT INTO payments (idempotency_key, amount_cents, state, captured_by, captured_slot) "
                + "VALUES ('checker-probe', 100, 'CAPTURED', 'ghost', ?)").params(java.sql.Timestamp.from(
                JobsHistoryChecker.slotTime(999))).update();
        List<String> violations = JobsHistoryChecker.check(db, Map.of(999L, List.of(0)), Set.of(), Set.of(), Set.of());
        db.sql("DELETE FROM payments WHERE idempotency_key = 'checker-probe'").update();
        assertThat(violations).anySatisfy(v -> assertThat(v).contains("slot 999: 1 payments stored as captured, callers were told 0"));
    }

    @Test
    void theCheckerCatchesAnUnfencedStaleWrite() {
        db.sql("INSERT INTO leader_actions (epoch, holder, action) VALUES (900000000000000000, 'new-leader', 'x')").update();
        db.sql("INSERT INTO leader_actions (epoch, holder, action) VALUES (1, 'old-leader', 'late, unfenced')").update();
        List<String> violations = JobsHistoryChecker.checkLeaderWrites(db, Set.of(), Set.of());
        db.sql("DELETE FROM leader_actions WHERE epoch IN (1, 900000000000000000)").update();
        assertThat(violations).anySatisfy(v -> assertThat(v).contains("accepted with an older epoch"));
    }

    @Test
    void aLeaderPausedPastItsLeaseIsReplacedAndNothingItWritesLateIsAccepted() throws Exception {
        Map<String, String> p = replicaProperties("paused-child");
        p.put("jobs.leader.group", "paused");
        p.put("seatlock.leader.groups.paused.lease", "1s");
        p.put("seatlock.leader.groups.paused.retry", "100ms");
        p.put("jobs.leader.duty-interval", "50ms");
        p.put("management.endpoints.web.exposure.include", "health,locks");
        String lockKey = new RedisKeys(servers.keyPrefix()).lock("leader:paused");
        try (ChildJvm child = new ChildJvm(JobsApplication.class, p)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> ownerOf(lockKey).endsWith("@paused-child"));
            await().atMost(Duration.ofSeconds(5)).until(() -> rebalances("paused-child") > 0);
            try (LeaderElection rival = LeaderElection.forGroup(
                    replicas.get(0).getBean(io.seatlock.lock.DistributedLock.class), "paused").candidate("rival")
                    .lease(Duration.ofSeconds(1)).retry(Duration.ofMillis(100)).build(new Candidate() {
                        public void onGranted(FencingToken epoch) {
                        }

                        public void onRevoked(FencingToken epoch) {
                        }
                    })) {
                rival.start();
                child.pause();
                long pausedAt = System.nanoTime();
                await().atMost(Duration.ofSeconds(3)).until(rival::isLeader);
                long takeoverMillis = (System.nanoTime() - pausedAt) / 1_000_000;
                FencingToken newEpoch = rival.epoch().orElseThrow();
                // Resume first: the child may have been stopped inside its own fenced transaction, holding the fence row.
                child.resume();
                PausedLeader.write(replicas.get(0), "paused", newEpoch, "rival", "rebalance");

                // The child wakes up: whatever it writes with its old epoch must be refused, and it must step down.
                HttpClient http = HttpClient.newHttpClient();
                await().atMost(Duration.ofSeconds(5)).until(() -> http.send(HttpRequest.newBuilder(URI.create(
                                "http://127.0.0.1:" + child.port() + "/actuator/locks")).build(),
                        HttpResponse.BodyHandlers.ofString()).body().matches(
                        "(?s).*\\{\"group\":\"paused\",\"candidate\":\"paused-child\",\"thisReplicaLeads\":false.*"));
                PausedLeader.write(replicas.get(0), "paused", newEpoch, "rival", "still leading");

                assertThat(takeoverMillis).as("a new leader within lease + retry (+ slack for a busy machine)").isLessThan(1000 + 100 + 1500);
                assertThat(db.sql("""
                                SELECT count(*) FROM leader_actions WHERE group_name = 'paused' AND holder = 'paused-child'
                                AND id > (SELECT min(id) FROM leader_actions WHERE group_name = 'paused' AND holder = 'rival')""")
                        .query(Long.class).single()).as("late writes of the paused leader accepted").isZero();
                assertThat(JobsHistoryChecker.checkLeaderWrites(db, Set.of(), Set.of())).isEmpty();
            }
        }
    }

    private static String ownerOf(String key) {
        String owner = redis.server().with(r -> r.get(key));
        return owner == null ? "" : owner;
    }

    private static long rebalances(String holder) {
        return db.sql("SELECT count(*) FROM leader_actions WHERE holder = ? AND action = 'rebalance'").params(holder)
                .query(Long.class).single();
    }
}
