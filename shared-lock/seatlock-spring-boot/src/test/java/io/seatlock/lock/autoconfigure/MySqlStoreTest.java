package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.mysql.MySqlLeaseFence;
import io.seatlock.lock.mysql.MySqlLock;
import io.seatlock.lock.postgres.PostgresLock;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.slots.JobSlots;
import io.seatlock.localservers.IsolatedMariaDb;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The starter on a MariaDB-only application: the store follows the database (the MySQL lock, its own pool, its table,
 * its lease fence, job slots on MariaDB, health saying the store and the database), and a Redis still wins when one
 * is configured.
 */
@ExtendWith(OutputCaptureExtension.class)
class MySqlStoreTest {

    @RegisterExtension
    static final IsolatedMariaDb database = new IsolatedMariaDb("MySqlStoreTest");
    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("MySqlStoreTest");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
                    DataRedisAutoConfiguration.class, SeatlockLockAutoConfiguration.class,
                    SeatlockPostgresLockAutoConfiguration.class, SeatlockMySqlLockAutoConfiguration.class,
                    SeatlockJdbcAutoConfiguration.class, SeatlockLeaderAutoConfiguration.class,
                    SeatlockActuatorAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=" + database.jdbcUrl(),
                    "spring.datasource.username=" + database.server().user(),
                    "spring.datasource.password=" + database.server().password(),
                    "seatlock.lock.instance-id=replica-7");

    @Test
    void onMariaDbTheLockIsTheMySqlLockWithItsPoolItsTableItsFenceAndJobSlots(CapturedOutput output) {
        runner.withPropertyValues("seatlock.leader.groups.ops.lease=3s", "seatlock.leader.groups.ops.retry=100ms")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(MySqlLock.class)
                            .doesNotHaveBean(PostgresLock.class).doesNotHaveBean(RedisLockClient.class);
                    assertThat(context.getBean(Fence.class)).isInstanceOf(MySqlLeaseFence.class);
                    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                    DistributedLock lock = context.getBean(DistributedLock.class);
                    try (LockLease lease = lock.tryAcquire("report:daily", Duration.ofSeconds(30),
                            OverlapImpact.WASTED_WORK).orElseThrow()) {
                        assertThat(jdbc.queryForObject("SELECT owner_token FROM seatlock_leases WHERE name = ?",
                                String.class, "report:daily")).isEqualTo(lease.ownerToken());
                    }
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> context.getBean(LeaderElections.class).get("ops").isLeader());
                    Health health = context.getBean(Boot4SeatlockHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("store", "mysql").containsEntry("database", "mariadb")
                            .containsEntry("table", "seatlock_leases").containsEntry("instanceId", "replica-7");

                    jdbc.execute(new String(getClass().getClassLoader()
                            .getResourceAsStream("db/seatlock-mysql/R__seatlock_job_runs.sql").readAllBytes(),
                            java.nio.charset.StandardCharsets.UTF_8));
                    JobSlots slots = context.getBean(JobSlots.class);
                    Instant slot = Instant.parse("2026-12-07T02:00:00Z");
                    assertThat(slots.claim("nightly", slot)).isTrue();
                    assertThat(slots.claim("nightly", slot)).isFalse();
                    assertThat(jdbc.queryForObject("SELECT runner FROM job_runs WHERE job_name = 'nightly'",
                            String.class)).isEqualTo("replica-7");
                });
        assertThat(output.getOut()).contains("seatlock lock on MySQL (table seatlock_leases, pool of 10, database mariadb) ready in");
    }

    @Test
    void aConfiguredRedisIsTheStoreUnlessMySqlIsAskedFor() {
        ApplicationContextRunner withRedis = runner.withPropertyValues("spring.data.redis.host=" + servers.redis().host(),
                "spring.data.redis.port=" + servers.redis().port(), "seatlock.lock.key-prefix=" + servers.keyPrefix());
        withRedis.run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(RedisLockClient.class).doesNotHaveBean(MySqlLock.class);
            assertThat(context.getBean(Fence.class)).as("the token fence of the database").isInstanceOf(
                    io.seatlock.lock.fencing.MySqlFence.class);
        });
        withRedis.withPropertyValues("seatlock.lock.store=mysql").run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(MySqlLock.class).doesNotHaveBean(RedisLockClient.class));
    }

    @Test
    void theMySqlStoreOnPostgresqlIsAReportNamingTheDatabase() {
        runner.withPropertyValues("seatlock.lock.store=mysql", "spring.datasource.url=" + servers.jdbcUrl(),
                "spring.datasource.username=" + servers.postgres().user(),
                "spring.datasource.password=" + servers.postgres().password()).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(new InvalidSeatlockConfigurationFailureAnalyzer().analyze(context.getStartupFailure())
                            .getDescription()).contains("The seatlock lock's store is MySQL")
                            .contains("spring.datasource.url) is postgresql");
                });
    }

    @Test
    void aMissingTableItIsNotToCreateStopsStartUpNamingTheDdl() {
        runner.withPropertyValues("seatlock.lock.mysql.create-table=false", "seatlock.lock.mysql.table=never_created")
                .run(context -> {
                    assertThat(context).hasFailed();
                    var report = new InvalidSeatlockConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(report.getDescription()).contains("never_created").contains("does not exist");
                    assertThat(report.getAction()).contains(MySqlLock.DDL_RESOURCE);
                });
    }
}
