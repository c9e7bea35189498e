package io.seatlock.lock.autoconfigure;

import io.seatlock.localservers.OwnedRedis;
import io.seatlock.lock.redis.RedisKeys;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.LockedTask;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.TaskResult;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.micrometer.LockGroups;
import io.seatlock.lock.fencing.PostgresFence;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.shedlock.SeatlockLockProvider;
import io.seatlock.localservers.IsolatedServers;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class SeatlockLockAutoConfigurationTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatlockLockAutoConfigurationTest");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
                    SeatlockMetricsAutoConfiguration.class, SeatlockLockAutoConfiguration.class,
                    SeatlockShedLockAutoConfiguration.class, SeatlockJdbcAutoConfiguration.class,
                    SeatlockActuatorAutoConfiguration.class))
            .withBean(DataSource.class, servers::dataSource)
            .withPropertyValues("spring.data.redis.host=" + servers.redis().host(),
                    "spring.data.redis.port=" + servers.redis().port(),
                    "seatlock.lock.key-prefix=" + servers.keyPrefix(),
                    "seatlock.lock.instance-id=replica-7");

    private static volatile OwnedRedis ownRedis;

    /** A bean that needs the lock: what Redis says of its clients when the lock is handed to it. */
    static final class FirstUser {
        final String clientsWhenHandedTheLock;

        FirstUser(DistributedLock lock) {
            clientsWhenHandedTheLock = ownRedis.server().with(r -> r.info("clients"));
        }
    }

    /**
     * The first connect happens while the application starts, before the lock is handed to any bean (the migration
     * gate, a runner), not inside the first lock call's timeout.
     */
    @Test
    void theLockIsConnectedBeforeAnyBeanGetsIt() throws Exception {
        try (OwnedRedis redis = new OwnedRedis()) {
            ownRedis = redis;
            runner.withPropertyValues("seatlock.lock.redis-url=redis://127.0.0.1:" + redis.port())
                    .withBean(FirstUser.class).run(context -> {
                assertThat(context).hasSingleBean(RedisLockClient.class);
                // the lock's connection, and the INFO connection asking
                assertThat(context.getBean(FirstUser.class).clientsWhenHandedTheLock.lines())
                        .anyMatch(l -> l.strip().equals("connected_clients:2"));
            });
        }
    }

    @Test
    void wiresLockFenceShedLockHealthAndMetricsFromSpringsRedisSettings() {
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            assertThat(context).hasSingleBean(RedisLockClient.class).hasSingleBean(PostgresFence.class)
                    .hasSingleBean(Boot4SeatlockHealthIndicator.class);
            assertThat(context.getBean(LockProvider.class)).isInstanceOf(SeatlockLockProvider.class);
            RedisLockClient lock = context.getBean(RedisLockClient.class);
            lock.tryAcquire("seat:demo:1A", Duration.ofSeconds(5), OverlapImpact.BROKEN_PROMISE).orElseThrow();
            assertThat(lock.tryAcquire("seat:demo:1A", Duration.ofSeconds(5), OverlapImpact.BROKEN_PROMISE)).isEmpty();

            String owner = servers.redis().with(r -> r.get(new RedisKeys(servers.keyPrefix()).lock("seat:demo:1A")));
            assertThat(owner).endsWith("@replica-7");
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters.counter("seatlock.lock.acquired", "seatlock.lock.group", "seat", "seatlock.lock.impact", "BROKEN_PROMISE").count())
                    .isEqualTo(1.0);
            assertThat(meters.counter("seatlock.lock.busy", "seatlock.lock.group", "seat").count()).isEqualTo(1.0);
            var health = context.getBean(Boot4SeatlockHealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("heldByThisInstance", 1).containsKey("roundTripMicros");
        });
    }

    @Test
    void canBeSwitchedOff() {
        runner.withPropertyValues("seatlock.lock.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(DistributedLock.class)
                        .doesNotHaveBean(Boot4SeatlockHealthIndicator.class).doesNotHaveBean(LockProvider.class));
        runner.withPropertyValues("seatlock.shedlock.enabled=false")
                .run(context -> assertThat(context).hasSingleBean(DistributedLock.class).doesNotHaveBean(LockProvider.class));
    }

    @Test // GH-10 item 10: a user's own bean of each kind replaces ours, and injecting by interface works
    void backsOffForAUserBeanOfEachKind() {
        RecordingLock userLock = new RecordingLock();
        PostgresFence userFence = new PostgresFence("my_fences", LockListener.NOOP);
        MicrometerLockListener userMetrics = new MicrometerLockListener(new SimpleMeterRegistry(), new LockGroups(),
                List.of());
        runner.withBean("myLock", DistributedLock.class, () -> userLock)
                .withBean("myFence", PostgresFence.class, () -> userFence)
                .withBean("myMetrics", MicrometerLockListener.class, () -> userMetrics)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(DistributedLock.class)
                            .doesNotHaveBean(RedisLockClient.class).doesNotHaveBean(Boot4SeatlockHealthIndicator.class)
                            .hasSingleBean(PostgresFence.class).hasSingleBean(MicrometerLockListener.class);
                    assertThat(context.getBean(DistributedLock.class)).isSameAs(userLock);
                    assertThat(context.getBean(PostgresFence.class)).isSameAs(userFence);
                    assertThat(context.getBean(MicrometerLockListener.class)).isSameAs(userMetrics);
                    // ShedLock's provider sits on the user's lock
                    context.getBean(LockProvider.class)
                            .lock(new LockConfiguration(Instant.now(), "report", Duration.ofMinutes(1), Duration.ZERO));
                    assertThat(userLock.asked).containsExactly("report");
                });

        LockProvider userProvider = configuration -> Optional.empty();
        runner.withBean("myProvider", LockProvider.class, () -> userProvider)
                .run(context -> assertThat(context.getBean(LockProvider.class)).isSameAs(userProvider));

        HealthIndicator userHealth = () -> Health.up().withDetail("mine", true).build();
        runner.withBean("seatlockHealthIndicator", HealthIndicator.class, () -> userHealth)
                .run(context -> assertThat(context).doesNotHaveBean(Boot4SeatlockHealthIndicator.class)
                        .getBean("seatlockHealthIndicator").isSameAs(userHealth));
    }

    /** A lock of the user's own: records what it is asked for and grants nothing. */
    private static final class RecordingLock implements DistributedLock {
        final List<String> asked = new CopyOnWriteArrayList<>();

        @Override
        public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
            asked.add(name);
            return Optional.empty();
        }

        @Override
        public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait) {
            throw new LockNotAcquiredException(name);
        }

        @Override
        public <T> TaskResult<T> executeLocked(String name, Duration ttl, OverlapImpact impact, LockedTask<T> task) {
            return TaskResult.notExecuted();
        }

        @Override
        public Optional<Duration> remainingTtl(String name) {
            return Optional.empty();
        }

        @Override
        public Optional<String> holder(String name) {
            return Optional.empty();
        }

        @Override
        public Set<String> heldNames(String namePrefix) {
            return Set.of();
        }

        @Override
        public Set<String> held(java.util.Collection<String> names) {
            return Set.of();
        }
    }

    @Test
    void theLocksEndpointListsWhatThisInstanceHoldsAndEachLeaderGroup() {
        runner.withConfiguration(AutoConfigurations.of(SeatlockLeaderAutoConfiguration.class))
                .withPropertyValues("management.endpoints.web.exposure.include=locks",
                        "seatlock.leader.groups.ops.lease=5s", "seatlock.leader.groups.ops.retry=100ms")
                .run(context -> {
                    RedisLockClient lock = context.getBean(RedisLockClient.class);
                    LockLease kept = lock.tryAcquire("report:daily", Duration.ofSeconds(30), OverlapImpact.WASTED_WORK)
                            .orElseThrow().keepAlive(() -> { });
                    await().atMost(Duration.ofSeconds(10)).until(() -> context.getBean(LeaderElections.class)
                            .get("ops").isLeader());
                    LocksEndpoint.LocksDescriptor view = context.getBean(LocksEndpoint.class).locks();

                    assertThat(view.instance()).isEqualTo("replica-7");
                    assertThat(view.held()).anySatisfy(held -> {
                        assertThat(held.name()).isEqualTo("report:daily");
                        assertThat(held.fencingToken()).isEqualTo(kept.fencingToken().value());
                        assertThat(held.renewal()).isEqualTo("kept alive");
                        assertThat(held.validForMillis()).isBetween(1L, 30_000L);
                    });
                    assertThat(view.leaders()).singleElement().satisfies(group -> {
                        assertThat(group.group()).isEqualTo("ops");
                        assertThat(group.thisReplicaLeads()).isTrue();
                        assertThat(group.leader()).isEqualTo("replica-7");
                        assertThat(group.epoch()).isPositive();
                    });
                    kept.release();
                });
    }

    @ParameterizedTest
    @CsvSource({"lettuce, 0s", "lettuce, -1s", "jedis, 0s", "jedis, -1s"})
    void aCommandTimeoutThatIsNotPositiveStopsStartup(String client, String timeout) {
        runner.withPropertyValues("seatlock.lock.client-type=" + client, "seatlock.lock.command-timeout=" + timeout)
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("command timeout must be positive, was " + Duration.parse("PT" + timeout)));
    }

    @Test
    void rejectsABadKeyPrefixAtStartup() {
        runner.withPropertyValues("seatlock.lock.key-prefix=bad{prefix}")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("braces"));
    }

    @Test
    void reportsDegradedNotDownWhenRedisDoesNotAnswerSoTheWholeHealthStaysUp() {
        runner.withPropertyValues("seatlock.lock.redis-url=redis://127.0.0.1:1", "seatlock.lock.command-timeout=300ms")
                .run(context -> {
                    var health = context.getBean(Boot4SeatlockHealthIndicator.class).health(true);
                    assertThat(health.getStatus().getCode()).isEqualTo("DEGRADED");
                    assertThat(health.getStatus().getDescription()).isEqualTo(SeatlockHealth.UNANSWERED);
                    assertThat(health.getDetails()).containsKey("error").containsEntry("refused", false);
                    // Spring Boot's default order does not rank DEGRADED: an aggregate of it and UP is UP
                    assertThat(new org.springframework.boot.health.actuate.endpoint.SimpleStatusAggregator()
                            .getAggregateStatus(java.util.Set.of(Status.UP, health.getStatus()))).isEqualTo(Status.UP);
                });
    }
}
