package io.seatlock.jobs;

import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.jobs.payments.PaymentCapture;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.postgres.PostgresLock;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Three replicas of app-jobs on PostgreSQL alone, started at once on one empty database with no Redis configured:
 * the lock is the PostgreSQL one, migrations run once behind the gate, each payment slot is captured once, one leader
 * writes, and a leader whose term ran out is refused by the lease fence before any newer leader has written.
 */
class JobsOnPostgresTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("JobsOnPostgresTest");

    private static final List<ConfigurableApplicationContext> replicas = new ArrayList<>();
    private static JdbcClient db;

    @BeforeAll
    static void startThreeReplicasAtOnce() throws Exception {
        db = JdbcClient.create(servers.dataSource());
        replicas.addAll(JobsReplica.startAtOnce(3, "pg-jobs-", JobsOnPostgresTest::start));
    }

    private static ConfigurableApplicationContext start(String name) {
        Map<String, String> p = new HashMap<>();
        p.put("spring.datasource.url", servers.jdbcUrl());
        p.put("spring.datasource.username", servers.postgres().user());
        p.put("spring.datasource.password", servers.postgres().password());
        p.put("seatlock.lock.key-prefix", servers.keyPrefix()); // would name Redis keys, were there any
        p.put("seatlock.lock.postgres.pool-size", "3");
        p.put("seatlock.lock.instance-id", name);
        p.put("seatlock.leader.groups.jobs.lease", "1500ms");
        p.put("seatlock.leader.groups.jobs.retry", "100ms");
        p.put("jobs.report.cron", "-");
        p.put("jobs.payments.cron", "-");
        p.put("spring.main.web-application-type", "none");
        return JobsReplica.start(p);
    }

    @AfterAll
    static void stop() {
        replicas.forEach(ConfigurableApplicationContext::close);
    }

    private static <T> List<T> beans(Class<T> type) {
        return replicas.stream().map(c -> c.getBean(type)).toList();
    }

    @Test
    void theLockIsOnPostgresAndNothingReachesRedis() {
        assertThat(beans(PostgresLock.class)).hasSize(3);
        assertThat(replicas).allSatisfy(replica -> assertThat(replica.getBeanNamesForType(
                io.seatlock.lock.redis.RedisLockClient.class)).isEmpty());
        assertThat(replicas).allSatisfy(replica -> assertThat(replica.getBean("seatlockHealthIndicator",
                HealthIndicator.class).health(true).getDetails()).containsEntry("store", "postgres"));
        List<String> redisKeys = servers.redis().with(r -> r.keys(servers.keyPrefix() + "*"));
        assertThat(redisKeys).isEmpty();
        assertThat(db.sql("SELECT count(*) FROM seatlock.leases WHERE name = 'leader:jobs'").query(Long.class).single())
                .isEqualTo(1);
    }

    @Test
    void migrationsRanExactlyOnceBehindTheGate() throws Exception {
        int appMigrations = new PathMatchingResourcePatternResolver().getResources("classpath:db/migration/V*.sql").length;
        assertThat(db.sql("SELECT count(*) FROM flyway_schema_history WHERE success AND version IS NOT NULL")
                .query(Long.class).single()).isEqualTo(appMigrations);
        double executed = beans(MeterRegistry.class).stream()
                .mapToDouble(m -> m.counter("seatlock.migrations.executed").count()).sum();
        assertThat(executed).as("each migration ran on exactly one replica").isEqualTo(appMigrations + 2.0); // and the library's two tables
    }

    @Test
    void eachPaymentIsCapturedOnceEvenWhenEveryReplicaRunsTheSlot() throws Exception {
        for (int i = 0; i < 15; i++) {
            db.sql("INSERT INTO payments (idempotency_key, amount_cents) VALUES (?, ?)").params("pg-order-" + i, 500 + i)
                    .update();
        }
        Instant slot = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> runs = new ArrayList<>();
        for (PaymentCapture capture : beans(PaymentCapture.class)) {
            for (int i = 0; i < 2; i++) {
                Callable<Integer> run = () -> {
                    go.await();
                    return capture.captureDue(slot);
                };
                runs.add(pool.submit(run));
            }
        }
        go.countDown();
        int captured = 0;
        int capturingRuns = 0;
        for (Future<Integer> run : runs) {
            int n = run.get(2, TimeUnit.MINUTES);
            captured += n;
            capturingRuns += n > 0 ? 1 : 0;
        }
        pool.shutdown();
        assertThat(captured).isEqualTo(15);
        assertThat(capturingRuns).isEqualTo(1);
        assertThat(db.sql("SELECT count(*) FROM job_runs WHERE job_name = 'payment-capture' AND slot = ?")
                .params(java.sql.Timestamp.from(slot)).query(Long.class).single()).isEqualTo(1);
    }

    @Test
    void aLeaderWhoseTermRanOutIsRefusedBeforeAnyNewerLeaderWrote() {
        List<LeaderElection> candidates = beans(LeaderElections.class).stream().map(e -> e.get("jobs")).toList();
        await().atMost(Duration.ofSeconds(10)).until(() -> candidates.stream().filter(LeaderElection::isLeader).count() == 1);
        LeaderElection leader = candidates.stream().filter(LeaderElection::isLeader).findFirst().orElseThrow();
        FencingToken epoch = leader.epoch().orElseThrow();
        ConfigurableApplicationContext replica = replicas.get(candidates.indexOf(leader));
        PausedLeader.write(replica, "jobs", epoch, leader.candidate(), "pg: in its term");

        // the term ends behind the leader's back (as by a pause past its lease); nobody has written since
        db.sql("UPDATE seatlock.leases SET expires_at = clock_timestamp() WHERE name = 'leader:jobs'").update();
        assertThatThrownBy(() -> PausedLeader.write(replica, "jobs", epoch, leader.candidate(), "pg: after its term"))
                .isInstanceOf(StaleFencingTokenException.class);
        assertThat(db.sql("SELECT count(*) FROM leader_actions WHERE action = 'pg: after its term'").query(Long.class)
                .single()).isZero();
        // its next renewal finds the term gone and it steps down; one leader follows, in a newer epoch (it may be the
        // same replica again, a few milliseconds later: waiting to see it not leading would miss that window)
        await().atMost(Duration.ofSeconds(10)).until(() -> candidates.stream().filter(LeaderElection::isLeader)
                .map(c -> c.epoch().orElse(epoch)).filter(e -> e.isNewerThan(epoch)).count() == 1);
    }
}
