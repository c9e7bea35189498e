package io.seatlock.jobs.faults;

import io.lettuce.core.KillArgs;
import io.lettuce.core.api.sync.RedisCommands;
import io.seatlock.jobs.JobsApplication;
import io.seatlock.jobs.jobs.PaymentCapture;
import io.seatlock.jobs.leader.LeaderElection;
import io.seatlock.jobs.leader.LeaderLedger;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.localservers.OwnedRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import java.time.Instant;
import java.util.ArrayList;
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
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

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
        db = JdbcClient.create(new SimpleDriverDataSource(new org.postgresql.Driver(), servers.jdbcUrl(),
                servers.postgres().user(), servers.postgres().password()));
        for (int i = 1; i <= 3; i++) {
            Map<String, String> p = new HashMap<>(servers.springProperties());
            p.put("spring.data.redis.port", Integer.toString(redis.port()));
            p.put("jobs.instance-id", "fault-jobs-" + i);
            p.put("seatlock.lock.instance-id", "fault-jobs-" + i);
            p.put("seatlock.lock.command-timeout", "300ms");
            p.put("jobs.leader.lease", "600ms");
            p.put("jobs.leader.retry", "50ms");
            p.put("jobs.report.cron", "-");
            p.put("jobs.payments.cron", "-");
            p.put("spring.main.web-application-type", "none");
            p.put("spring.datasource.hikari.connection-timeout", "2000");
            replicas.add(new SpringApplicationBuilder(JobsApplication.class)
                    .run(p.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new)));
        }
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
        Set<String> accepted = ConcurrentHashMap.newKeySet();
        Set<String> rejected = ConcurrentHashMap.newKeySet();
        List<String> errors = new CopyOnWriteArrayList<>();
        AtomicBoolean done = new AtomicBoolean();

        Thread nemesis = new Thread(() -> {
            Random faults = new Random(SEED + 1);
            while (!done.get()) {
                try {
                    switch (faults.nextInt(4)) {
                        case 0 -> redis.server().with(RedisCommands::flushall);
                        case 1 -> redis.server().with(r -> r.clientKill(KillArgs.Builder.typeNormal()));
                        case 2 -> redis.restart();
                        default -> db.sql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                + "WHERE datname = ? AND pid <> pg_backend_pid()").params(servers.database())
                                .query(Long.class).single();
                    }
                    Thread.sleep(150 + faults.nextInt(250));
                } catch (Exception e) {
                    // keep injecting
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
                        int n = capture.captureDue(Instant.ofEpochSecond(1_700_000_000L + slot));
                        capturedPerSlot.computeIfAbsent(slot, s -> new CopyOnWriteArrayList<>()).add(n);
                    } catch (RuntimeException e) {
                        unknownCalls.incrementAndGet();
                    }
                    Thread.sleep(20);
                }
                return null;
            }));
            LeaderElection election = replica.getBean(LeaderElection.class);
            LeaderLedger ledger = replica.getBean(LeaderLedger.class);
            work.add(pool.submit(() -> {
                FencingToken lastEpoch = null;
                for (int i = 0; i < 150; i++) {
                    // A paused leader keeps its old epoch and writes late: keep using the last one seen.
                    FencingToken epoch = election.epoch().orElse(lastEpoch);
                    if (epoch != null) {
                        lastEpoch = epoch;
                        String write = epoch.value() + "|" + election.candidate() + "|tick-" + i;
                        try {
                            ledger.record("jobs", epoch, election.candidate(), "tick-" + i);
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

        long capturedByUnknown = unknownCalls.get() * 200;
        List<String> violations = JobsHistoryChecker.check(db, capturedPerSlot, capturedByUnknown, accepted, rejected);
        System.out.printf("jobs faults: %d slots, %d unknown capture calls, %d accepted and %d rejected leader writes, "
                + "%d other errors%n", capturedPerSlot.size(), unknownCalls.get(), accepted.size(), rejected.size(), errors.size());
        assertThat(violations).as("seed " + SEED).isEmpty();
        assertThat(accepted).as("leaders made progress").isNotEmpty();
        assertThat(capturedPerSlot).as("jobs made progress").isNotEmpty();
    }

    @Test
    void theCheckerCatchesAnUnfencedStaleWrite() {
        db.sql("INSERT INTO leader_actions (epoch, holder, action) VALUES (900000000000000000, 'new-leader', 'x')").update();
        db.sql("INSERT INTO leader_actions (epoch, holder, action) VALUES (1, 'old-leader', 'late, unfenced')").update();
        List<String> violations = JobsHistoryChecker.check(db, Map.of(), 0, Set.of(), Set.of());
        db.sql("DELETE FROM leader_actions WHERE epoch IN (1, 900000000000000000)").update();
        assertThat(violations).anySatisfy(v -> assertThat(v).contains("accepted with an older epoch"));
    }
}
