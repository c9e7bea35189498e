package io.seatlock.jobs;

import io.seatlock.lock.redis.RedisKeys;
import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.jobs.payments.PaymentCapture;
import io.seatlock.lock.autoconfigure.LocksEndpoint;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.jobs.stock.StockReservations;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Three replicas of app-jobs started at once on one empty database and one Redis. */
class JobsReplicasTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("JobsReplicasTest");

    private static final List<ConfigurableApplicationContext> replicas = new ArrayList<>();
    private static JdbcClient db;

    @BeforeAll
    static void startThreeReplicasAtOnce() throws Exception {
        db = JdbcClient.create(servers.dataSource());
        replicas.addAll(JobsReplica.startAtOnce(3, "jobs-", JobsReplicasTest::start));
    }

    private static ConfigurableApplicationContext start(String name) {
        Map<String, String> p = new java.util.HashMap<>(servers.springProperties());
        p.put("seatlock.lock.instance-id", name);
        p.put("seatlock.leader.groups.jobs.lease", "1500ms");
        p.put("seatlock.leader.groups.jobs.retry", "100ms");
        p.put("management.endpoints.web.exposure.include", "health,locks");
        p.put("jobs.report.cron", "-");
        p.put("jobs.payments.cron", "-");
        p.put("spring.main.web-application-type", "none");
        return JobsReplica.start(p);
    }

    @AfterAll
    static void stop() {
        replicas.forEach(ConfigurableApplicationContext::close);
    }

    private static List<LeaderElection> elections() {
        return beans(LeaderElections.class).stream().map(e -> e.get("jobs")).toList();
    }

    private static <T> List<T> beans(Class<T> type) {
        return replicas.stream().map(c -> c.getBean(type)).toList();
    }

    private static <T> List<T> concurrently(List<Callable<T>> work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(work.size(), 32));
        CountDownLatch go = new CountDownLatch(1);
        List<Future<T>> futures = work.stream().map(w -> pool.submit(() -> {
            go.await();
            return w.call();
        })).toList();
        go.countDown();
        List<T> results = new ArrayList<>();
        for (Future<T> f : futures) {
            results.add(f.get(2, TimeUnit.MINUTES));
        }
        pool.shutdown();
        return results;
    }

    @Test
    void migrationsRanExactlyOnceAndAllThreeReplicasCameUp() throws Exception {
        int appMigrations = new PathMatchingResourcePatternResolver().getResources("classpath:db/migration/V*.sql").length;
        assertThat(replicas).hasSize(3).allMatch(ConfigurableApplicationContext::isActive);
        assertThat(db.sql("SELECT count(*) FROM flyway_schema_history WHERE success AND version IS NOT NULL")
                .query(Long.class).single()).isEqualTo(appMigrations);
        assertThat(db.sql("SELECT count(DISTINCT version) FROM flyway_schema_history").query(Long.class).single())
                .isEqualTo(appMigrations);
        // the library's own tables come as repeatable migrations (db/seatlock): lock_fences, job_runs
        assertThat(db.sql("SELECT count(*) FROM flyway_schema_history WHERE success AND version IS NULL")
                .query(Long.class).single()).isEqualTo(2);
        double executed = beans(MeterRegistry.class).stream()
                .mapToDouble(m -> m.counter("seatlock.migrations.executed").count()).sum();
        assertThat(executed).as("each migration ran on exactly one replica").isEqualTo(appMigrations + 2.0);
    }

    @Test
    void eachPaymentIsCapturedOnceEvenWhenEveryReplicaRunsTheSlot() throws Exception {
        for (int i = 0; i < 25; i++) {
            db.sql("INSERT INTO payments (idempotency_key, amount_cents) VALUES (?, ?)").params("order-" + i, 1000 + i).update();
        }
        Instant slot = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<Callable<Integer>> runs = new ArrayList<>();
        for (PaymentCapture capture : beans(PaymentCapture.class)) {
            runs.add(() -> capture.captureDue(slot));
            runs.add(() -> capture.captureDue(slot));
        }
        List<Integer> captured = concurrently(runs);

        assertThat(captured.stream().mapToInt(Integer::intValue).sum()).isEqualTo(25);
        assertThat(captured.stream().filter(c -> c > 0)).hasSize(1);
        assertThat(db.sql("SELECT count(*) FROM payments WHERE state = 'CAPTURED'").query(Long.class).single()).isEqualTo(25);
        assertThat(db.sql("SELECT count(*) FROM job_runs WHERE job_name = 'payment-capture' AND slot = ?")
                .params(java.sql.Timestamp.from(slot)).query(Long.class).single()).isEqualTo(1);
    }

    @Test
    void oneHundredReserversNeverOversellTenUnits() throws Exception {
        db.sql("INSERT INTO stock (sku, total) VALUES ('lamp', 10)").update();
        List<StockReservations> reservations = beans(StockReservations.class);
        List<Callable<StockReservations.Outcome>> reservers = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            StockReservations r = reservations.get(i % 3);
            reservers.add(() -> r.reserve("lamp", Duration.ofSeconds(60)));
        }
        List<StockReservations.Outcome> outcomes = concurrently(reservers);

        assertThat(outcomes.stream().filter(o -> o == StockReservations.Outcome.RESERVED)).hasSize(10);
        assertThat(outcomes.stream().filter(o -> o == StockReservations.Outcome.SOLD_OUT)).hasSize(90);
        assertThat(db.sql("SELECT reserved FROM stock WHERE sku = 'lamp'").query(Integer.class).single()).isEqualTo(10);
    }

    @Test
    void exactlyOneLeaderAndALostLeadersDelayedWriteIsRejected() {
        List<LeaderElection> candidates = elections();
        await().atMost(Duration.ofSeconds(10)).until(() -> candidates.stream().filter(LeaderElection::isLeader).count() == 1);
        LeaderElection oldLeader = candidates.stream().filter(LeaderElection::isLeader).findFirst().orElseThrow();
        FencingToken oldEpoch = oldLeader.epoch().orElseThrow();
        ConfigurableApplicationContext oldReplica = replicas.get(candidates.indexOf(oldLeader));
        PausedLeader.write(oldReplica, "jobs", oldEpoch, oldLeader.candidate(), "before the pause");

        // The leader stalls past its lease: the lock vanishes behind its back (as it would by expiry).
        servers.redis().with(r -> r.del(new RedisKeys(servers.keyPrefix()).lock("leader:jobs")));
        // The old leader revokes itself within its lease (its next renewal finds the lock gone) ...
        await().atMost(Duration.ofMillis(1500)).until(() -> !oldLeader.isLeader());
        // ... and a new leader appears within lease + retry.
        await().atMost(Duration.ofMillis(1600)).until(() -> candidates.stream()
                .anyMatch(c -> c != oldLeader && c.isLeader()));
        LeaderElection newLeader = candidates.stream().filter(c -> c != oldLeader && c.isLeader()).findFirst().orElseThrow();
        FencingToken newEpoch = newLeader.epoch().orElseThrow();
        assertThat(newEpoch.isNewerThan(oldEpoch)).isTrue();
        PausedLeader.write(replicas.get(candidates.indexOf(newLeader)), "jobs", newEpoch, newLeader.candidate(),
                "new term");

        assertThatThrownBy(() -> PausedLeader.write(oldReplica, "jobs", oldEpoch, oldLeader.candidate(),
                "late write from the old term"))
                .isInstanceOf(StaleFencingTokenException.class);
        assertThat(db.sql("SELECT count(*) FROM leader_actions WHERE action = 'late write from the old term'")
                .query(Long.class).single()).isZero();
        assertThat(db.sql("SELECT count(DISTINCT holder) FROM leader_actions GROUP BY epoch").query(Long.class).list())
                .allMatch(holders -> holders == 1);
        assertThat(Stream.of(candidates.toArray(LeaderElection[]::new)).filter(LeaderElection::isLeader)).hasSize(1);
        assertThat(replicas.get(candidates.indexOf(oldLeader)).getBean(MeterRegistry.class)
                .counter("seatlock.lock.fencing.rejections", "seatlock.lock.group", "leader").count()).isEqualTo(1.0);
    }

    @Test
    void yieldingHandsLeadershipToAnotherCandidateWithANewerEpoch() {
        List<LeaderElection> candidates = elections();
        await().atMost(Duration.ofSeconds(10)).until(() -> candidates.stream().filter(LeaderElection::isLeader).count() == 1);
        LeaderElection leader = candidates.stream().filter(LeaderElection::isLeader).findFirst().orElseThrow();
        FencingToken epoch = leader.epoch().orElseThrow();

        leader.yieldLeadership();

        assertThat(leader.isLeader()).isFalse();
        await().atMost(Duration.ofSeconds(5)).until(() -> candidates.stream().filter(LeaderElection::isLeader).count() == 1);
        FencingToken next = candidates.stream().filter(LeaderElection::isLeader).findFirst().orElseThrow().epoch().orElseThrow();
        assertThat(next.isNewerThan(epoch)).isTrue();
    }

    @Test
    void theLocksEndpointShowsOneLeaderItsEpochAndItsLease() {
        List<LeaderElection> candidates = elections();
        await().atMost(Duration.ofSeconds(10)).until(() -> candidates.stream().filter(LeaderElection::isLeader).count() == 1);
        String leader = candidates.stream().filter(LeaderElection::isLeader).findFirst().orElseThrow().candidate();
        List<LocksEndpoint.LeaderGroup> views = beans(LocksEndpoint.class).stream()
                .map(e -> e.locks().leaders().get(0)).toList();

        assertThat(views).filteredOn(LocksEndpoint.LeaderGroup::thisReplicaLeads).singleElement().satisfies(v -> {
            assertThat(v.epoch()).isPositive();
            assertThat(v.remainingLeaseMillis()).isPositive();
        });
        assertThat(views).extracting(LocksEndpoint.LeaderGroup::candidate).containsExactlyInAnyOrder("jobs-1", "jobs-2",
                "jobs-3");
        assertThat(views).extracting(LocksEndpoint.LeaderGroup::leader).as("every replica sees the same leader")
                .containsOnly(leader);
        assertThat(views).extracting(LocksEndpoint.LeaderGroup::group).containsOnly("jobs");
    }
}
