package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisKeys;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.slots.JobSlots;
import io.seatlock.localservers.IsolatedServers;
import net.javacrumbs.shedlock.core.LockProvider;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each optional dependency may be absent: the context starts and the feature that needs it is simply not
 * there, or startup fails with one message that names what to add. Never a NoClassDefFoundError.
 */
class SeatlockOptionalDependenciesTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatlockOptionalDependenciesTest");

    private final ApplicationContextRunner everything = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DataSourceAutoConfiguration.class,
                    JdbcTemplateAutoConfiguration.class, FlywayAutoConfiguration.class,
                    SeatlockMetricsAutoConfiguration.class, SeatlockLockAutoConfiguration.class,
                    SeatlockShedLockAutoConfiguration.class,
                    SeatlockLeaderAutoConfiguration.class, SeatlockMigrationAutoConfiguration.class,
                    SeatlockJdbcAutoConfiguration.class, SeatlockActuatorAutoConfiguration.class))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withPropertyValues(servers.springProperties().entrySet().stream().map(p -> p.getKey() + "=" + p.getValue())
                    .toArray(String[]::new))
            .withPropertyValues("spring.flyway.locations=classpath:db/seatlock",
                    "seatlock.leader.groups.ops.lease=5s", "management.endpoints.web.exposure.include=locks");

    @Test
    void withEverythingPresentEveryPartIsThere() {
        everything.run(context -> assertThat(context).hasNotFailed().hasSingleBean(RedisLockClient.class)
                .hasSingleBean(LockProvider.class).hasSingleBean(LeaderElections.class)
                .hasSingleBean(FlywayMigrationStrategy.class).hasSingleBean(Fence.class).hasSingleBean(JobSlots.class)
                .hasSingleBean(MicrometerLockListener.class).hasSingleBean(MigrationGateMetrics.class)
                .hasSingleBean(Boot4SeatlockHealthIndicator.class).hasSingleBean(LocksEndpoint.class));
    }

    /** Spring Data Redis and Boot's module for it are both gone, as in an application that never added them. */
    private static FilteredClassLoader withoutSpringDataRedis() {
        return new FilteredClassLoader("org.springframework.data.redis", "org.springframework.boot.data.redis");
    }

    @Test
    void withoutSpringDataRedisTheLockRunsOnItsOwnUrl() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SeatlockLockAutoConfiguration.class,
                        SeatlockShedLockAutoConfiguration.class, SeatlockLeaderAutoConfiguration.class,
                        SeatlockActuatorAutoConfiguration.class))
                .withClassLoader(withoutSpringDataRedis())
                .withPropertyValues("seatlock.lock.key-prefix=" + servers.keyPrefix(), "seatlock.lock.redis-url=redis://"
                        + servers.redis().host() + ":" + servers.redis().port())
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(SpringRedisEndpoints.class)
                            .hasSingleBean(LockProvider.class).hasSingleBean(Boot4SeatlockHealthIndicator.class);
                    DistributedLock lock = context.getBean(DistributedLock.class);
                    try (LockLease lease = lock.tryAcquire("optional:no-data-redis", Duration.ofSeconds(5),
                            OverlapImpact.WASTED_WORK).orElseThrow()) {
                        String owner = servers.redis().with(r -> r.get(new RedisKeys(servers.keyPrefix()).lock("optional:no-data-redis")));
                        assertThat(owner).isEqualTo(lease.ownerToken());
                    }
                });
    }

    @Test
    void withoutSpringDataRedisOrAUrlStartupNamesWhatToAdd() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SeatlockLockAutoConfiguration.class))
                .withClassLoader(withoutSpringDataRedis())
                .withPropertyValues("seatlock.lock.store=redis")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("seatlock.lock.redis-url")
                        .hasMessageContaining("spring-boot-starter-data-redis"));
    }

    @Test
    void withoutJdbcThereIsNoFenceAndNoJobSlots() {
        everything.withClassLoader(new FilteredClassLoader(JdbcTemplate.class, Flyway.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(DistributedLock.class)
                        .doesNotHaveBean(JobSlots.class).doesNotHaveBean(FlywayMigrationStrategy.class));
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
                        SeatlockLockAutoConfiguration.class, SeatlockJdbcAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.host=" + servers.redis().host(),
                        "spring.data.redis.port=" + servers.redis().port())
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(DistributedLock.class)
                        .doesNotHaveBean(Fence.class).doesNotHaveBean(JobSlots.class));
    }

    @Test
    void withoutFlywayThereIsNoMigrationGate() {
        everything.withClassLoader(new FilteredClassLoader(Flyway.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(DistributedLock.class)
                        .doesNotHaveBean(FlywayMigrationStrategy.class).doesNotHaveBean(MigrationGateMetrics.class));
    }

    @Test
    void withoutShedLockThereIsNoProvider() {
        everything.withClassLoader(new FilteredClassLoader(LockProvider.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(DistributedLock.class)
                        .doesNotHaveBean(LockProvider.class));
    }

    @Test
    void withoutActuatorThereIsNoHealthIndicatorAndNoEndpoint() {
        everything.withClassLoader(new FilteredClassLoader(HealthIndicator.class, Endpoint.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(DistributedLock.class)
                        .doesNotHaveBean(Boot4SeatlockHealthIndicator.class).doesNotHaveBean(LocksEndpoint.class)
                        .hasSingleBean(LeaderElections.class));
    }

    @Test
    void withoutMicrometerThereAreNoMeters() {
        everything.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(DistributedLock.class)
                        .doesNotHaveBean(MicrometerLockListener.class).doesNotHaveBean(MigrationGateMetrics.class)
                        .hasSingleBean(FlywayMigrationStrategy.class));
    }

    @Test
    void withoutTheRecipesModuleThereAreNoElectionsAndNoEndpoint() {
        everything.withClassLoader(new FilteredClassLoader(LeaderElections.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(DistributedLock.class)
                        .doesNotHaveBean(LeaderElections.class).doesNotHaveBean(LocksEndpoint.class));
    }

    @Test
    void withoutTheRedisModuleNothingNeedsALock() {
        everything.withClassLoader(new FilteredClassLoader(RedisLockClient.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DistributedLock.class)
                        .doesNotHaveBean(LockProvider.class).doesNotHaveBean(LeaderElections.class)
                        .doesNotHaveBean(FlywayMigrationStrategy.class).doesNotHaveBean(Boot4SeatlockHealthIndicator.class));
    }
}
