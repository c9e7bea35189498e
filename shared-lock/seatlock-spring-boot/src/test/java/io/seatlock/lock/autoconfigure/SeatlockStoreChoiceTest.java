package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.postgres.PostgresLeaseFence;
import io.seatlock.lock.postgres.PostgresLock;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;


import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Which store the starter picks, and the PostgreSQL lock as it wires it: own pool, table, fence, health, elections. */
@ExtendWith(OutputCaptureExtension.class)
class SeatlockStoreChoiceTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatlockStoreChoiceTest");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    SeatlockLockAutoConfiguration.class, SeatlockPostgresLockAutoConfiguration.class,
                    SeatlockJdbcAutoConfiguration.class, SeatlockLeaderAutoConfiguration.class,
                    SeatlockActuatorAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=" + servers.jdbcUrl(),
                    "spring.datasource.username=" + servers.postgres().user(),
                    "spring.datasource.password=" + servers.postgres().password(),
                    "seatlock.lock.key-prefix=" + servers.keyPrefix(), "seatlock.lock.instance-id=replica-3");

    @Test
    void withNoRedisConfiguredTheLockIsOnTheDatabaseItsOwnPoolItsTableAndItsFence(CapturedOutput output) {
        runner.withPropertyValues("seatlock.leader.groups.ops.lease=3s", "seatlock.leader.groups.ops.retry=100ms")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(PostgresLock.class)
                            .doesNotHaveBean(RedisLockClient.class);
                    assertThat(context.getBean(Fence.class)).isInstanceOf(PostgresLeaseFence.class);
                    DistributedLock lock = context.getBean(DistributedLock.class);
                    try (LockLease lease = lock.tryAcquire("report:daily", Duration.ofSeconds(30),
                            OverlapImpact.WASTED_WORK).orElseThrow()) {
                        assertThat(ownerInTable("report:daily")).isEqualTo(lease.ownerToken());
                    }
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> context.getBean(LeaderElections.class).get("ops").isLeader());
                    Health health = context.getBean(Boot4SeatlockHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("store", "postgres")
                            .containsEntry("table", "seatlock.leases").containsEntry("instanceId", "replica-3")
                            .containsEntry("heldByThisInstance", 1);
                });
        assertThat(output.getOut()).contains("seatlock lock on PostgreSQL (table seatlock.leases, pool of 10) ready in");
    }

    @Test
    void aConfiguredRedisIsTheStoreUnlessPostgresIsAskedFor() {
        runner.withPropertyValues("spring.data.redis.host=" + servers.redis().host(),
                "spring.data.redis.port=" + servers.redis().port()).run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(RedisLockClient.class)
                            .doesNotHaveBean(PostgresLock.class);
                    Health health = context.getBean(Boot4SeatlockHealthIndicator.class).health(true);
                    assertThat(health.getDetails()).containsEntry("store", "redis");
                });
        runner.withPropertyValues("spring.data.redis.host=" + servers.redis().host(),
                "spring.data.redis.port=" + servers.redis().port(), "seatlock.lock.store=postgres").run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(PostgresLock.class).doesNotHaveBean(RedisLockClient.class));
    }

    @Test
    void redisConnectionDetailsOfTheApplicationsOwnMakeRedisTheStore() {
        runner.withBean(org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails.class,
                () -> new org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails() {
                    @Override
                    public Standalone getStandalone() {
                        return Standalone.of(servers.redis().host(), servers.redis().port());
                    }
                }).run(context -> assertThat(context).hasNotFailed().hasSingleBean(RedisLockClient.class)
                        .doesNotHaveBean(PostgresLock.class));
    }

    @Test
    void aTableThatIsNotThereAndMayNotBeCreatedStopsStartupNamingIt() throws Exception {
        runner.withPropertyValues("seatlock.lock.postgres.create-table=false",
                "seatlock.lock.postgres.table=absent.leases").run(context -> {
                    assertThat(context).hasFailed();
                    InvalidSeatlockConfigurationException report = findReport(context.getStartupFailure());
                    assertThat(report.description()).contains("table absent.leases cannot be used")
                            .contains("'absent.leases'").contains("does not exist");
                    assertThat(report.action()).contains("db/seatlock-lock/R__seatlock_lock_leases.sql");
                });
        try (Connection c = servers.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_namespace WHERE nspname = 'absent'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("nothing created").isZero();
        }
    }

    @Test
    void aPoolTooSmallForTheListenerIsRefused() {
        runner.withPropertyValues("seatlock.lock.postgres.pool-size=1").run(context -> {
            assertThat(context).hasFailed();
            assertThat(findReport(context.getStartupFailure()).description())
                    .contains("Invalid seatlock.lock.postgres.pool-size: 1");
        });
    }

    private static InvalidSeatlockConfigurationException findReport(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidSeatlockConfigurationException report) {
                return report;
            }
        }
        throw new AssertionError("no start-up report in " + failure);
    }

    private static String ownerInTable(String name) throws Exception {
        try (Connection c = servers.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT owner_token FROM seatlock.leases WHERE name = '" + name + "'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

}
