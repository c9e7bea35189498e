package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.migration.MigrationGate;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.lettuce.LettuceTransport;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.IsolatedServers;
import org.flywaydb.core.Flyway;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The gate's failure paths: a lock lost mid-migration stops the replica; a bounded wait fails clearly. */
class MigrationGateTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("MigrationGateTest");

    private final AtomicInteger lost = new AtomicInteger();
    private final RedisLockClient lock = RedisLockClient.over(
            LettuceTransport.standalone(servers.redis().uri(), RedisTimeouts.of(Duration.ofSeconds(2))),
            RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), new LockListener() {
                @Override
                public void onLost(String group, OverlapImpact impact, Duration held) {
                    lost.incrementAndGet();
                }
            });

    @AfterEach
    void close() {
        lock.close();
    }

    private final List<Object> availability = new CopyOnWriteArrayList<>();

    private final List<Integer> exitCodes = new CopyOnWriteArrayList<>();
    /** The outcome of each observed pass, in order. */
    private final List<String> passes = new CopyOnWriteArrayList<>();
    private final io.micrometer.observation.ObservationRegistry observations = io.micrometer.observation.ObservationRegistry.create();

    {
        observations.observationConfig().observationHandler(new io.micrometer.observation.ObservationHandler<>() {
            @Override
            public void onStop(io.micrometer.observation.Observation.Context context) {
                passes.add(context.getName() + ":" + context.getLowCardinalityKeyValue("seatlock.outcome").getValue());
            }

            @Override
            public boolean supportsContext(io.micrometer.observation.Observation.Context context) {
                return true;
            }
        });
    }

    private MigrationGateStrategy gate(Duration ttl, Duration maxWait) {
        return gate(ttl, maxWait, SeatlockMigrationProperties.Timing.BEFORE_BEANS, false);
    }

    private MigrationGateStrategy gate(Duration ttl, Duration maxWait, SeatlockMigrationProperties.Timing timing,
                                       boolean only) {
        return gate(lock, ttl, maxWait, timing, only);
    }

    private MigrationGateStrategy gate(DistributedLock through, Duration ttl, Duration maxWait,
                                       SeatlockMigrationProperties.Timing timing, boolean only) {
        java.util.concurrent.atomic.AtomicReference<MigrationGate.Passage> passage = new java.util.concurrent.atomic.AtomicReference<>();
        return new MigrationGateStrategy(new MigrationGate(through, ttl, maxWait, passage::set),
                new SeatlockMigrationProperties(true, ttl, maxWait, timing, only),
                event -> availability.add(((AvailabilityChangeEvent<?>) event).getState()), exitCodes::add,
                observations, passage::get);
    }

    private Flyway flyway(Callback... callbacks) {
        return flyway("classpath:db/gate-test", callbacks);
    }

    private Flyway flyway(String locations, Callback... callbacks) {
        return Flyway.configure().dataSource(servers.jdbcUrl(), servers.postgres().user(), servers.postgres().password())
                .locations(locations.split(",")).callbacks(callbacks).load();
    }

    @AfterEach
    void dropTables() throws Exception {
        try (var c = servers.dataSource().getConnection(); var s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS flyway_schema_history, gate_a, gate_b, gate_c");
        }
        servers.redis().with(r -> r.del(new RedisKeys(servers.keyPrefix()).lock("migration")));
    }

    private static Callback stealingTheLockAfterEachMigration(Runnable steal) {
        return new Callback() {
            @Override
            public boolean supports(Event event, Context context) {
                return event == Event.AFTER_EACH_MIGRATE;
            }

            @Override
            public boolean canHandleInTransaction(Event event, Context context) {
                return true;
            }

            @Override
            public void handle(Event event, Context context) {
                steal.run();
            }

            @Override
            public String getCallbackName() {
                return "steal-migration-lock";
            }
        };
    }

    private void stealOnce() {
        if (lost.get() == 0) {
            servers.redis().with(r -> r.del(new RedisKeys(servers.keyPrefix()).lock("migration")));
            await().atMost(Duration.ofSeconds(3)).until(() -> lost.get() == 1);
        }
    }

    @Test
    void aReplicaThatLosesTheLockWhileMigratingRefusesToStart() {
        assertThatThrownBy(() -> gate(Duration.ofMillis(900), Duration.ofSeconds(5))
                .migrate(flyway(stealingTheLockAfterEachMigration(this::stealOnce))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lost the 'migration' lock while migrating");
    }

    @Test
    void byDefaultTheGateMigratesWhereSpringBootRunsFlywayBeforeTheBeansThatNeedTheSchema() {
        gate(Duration.ofSeconds(30), Duration.ofSeconds(5)).migrate(flyway());
        gate(Duration.ofSeconds(30), Duration.ofSeconds(5)).migrate(flyway());

        assertThat(flyway().info().applied()).hasSize(2);
        assertThat(availability).as("no web server yet: nothing to tell").isEmpty();
        assertThat(passes).as("each pass observed with its outcome")
                .containsExactly("seatlock.migration.gate:migrated", "seatlock.migration.gate:current");
    }

    @Test
    void afterTheWebServerTheGateWaitsAsAnAliveButNotReadyReplicaAndFailsClearlyPastItsBound() {
        lock.tryAcquire("migration", Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();
        MigrationGateStrategy gate = gate(Duration.ofSeconds(30), Duration.ofMillis(300),
                SeatlockMigrationProperties.Timing.AFTER_WEB_SERVER, false);

        gate.migrate(flyway());
        assertThat(flyway().info().applied()).as("nothing before the web server").isEmpty();
        assertThatThrownBy(gate::start)
                .isInstanceOf(LockNotAcquiredException.class).hasMessageContaining("'migration'")
                .hasMessageContaining("seatlock.migration.max-wait");
        assertThat(flyway().info().applied()).isEmpty();
        assertThat(passes).containsExactly("seatlock.migration.gate:waited-too-long");
        // while it waited it told the platform: alive, not ready
        assertThat(availability).containsExactly(LivenessState.CORRECT, ReadinessState.REFUSING_TRAFFIC);
    }

    @Test
    void oneShotExitsZeroWhenItMigrated() {
        gate(Duration.ofSeconds(30), Duration.ofSeconds(5), SeatlockMigrationProperties.Timing.BEFORE_BEANS, true)
                .migrate(flyway());

        assertThat(exitCodes).containsExactly(MigrationGate.Outcome.SCHEMA_CURRENT.exitCode());
        assertThat(flyway().info().applied()).hasSize(2);
    }

    @Test
    void oneShotExitsZeroWhenAnotherReplicaHadMigrated() {
        flyway().migrate();
        gate(Duration.ofSeconds(30), Duration.ofSeconds(5), SeatlockMigrationProperties.Timing.BEFORE_BEANS, true)
                .migrate(flyway());

        assertThat(exitCodes).containsExactly(MigrationGate.Outcome.SCHEMA_CURRENT.exitCode());
    }

    @Test
    void oneShotExitsOneWhenAMigrationFailsAndTwoWhenItWaitedTooLong() {
        MigrationGateStrategy gate = gate(Duration.ofSeconds(30), Duration.ofMillis(300),
                SeatlockMigrationProperties.Timing.BEFORE_BEANS, true);
        gate.migrate(flyway("classpath:db/gate-test,classpath:db/gate-failing"));
        assertThat(exitCodes).containsExactly(MigrationGate.Outcome.MIGRATION_FAILED.exitCode());
        assertThat(flyway("classpath:db/gate-test,classpath:db/gate-failing").info().current().getVersion())
                .as("V3 rolled back").hasToString("2");

        lock.tryAcquire("migration", Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();
        gate.migrate(flyway());
        assertThat(exitCodes).containsExactly(MigrationGate.Outcome.MIGRATION_FAILED.exitCode(), MigrationGate.Outcome.WAITED_TOO_LONG.exitCode());
    }

    @Test
    void redisFailingAsTheGateNamesItsHolderAfterMaxWaitStillKeepsTheReplicaFromMigrating() {
        lock.tryAcquire("migration", Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();
        oneShot(new RedisFails(lock, false)).migrate(flyway());

        assertThat(exitCodes).as("waited past max-wait, not the fallback for a Redis that is down")
                .containsExactly(MigrationGate.Outcome.WAITED_TOO_LONG.exitCode());
        assertThat(flyway().info().applied()).as("nothing migrated while another replica held the gate").isEmpty();
    }

    @Test
    void aReplicaThatCannotReachRedisMigratesUnderFlywaysOwnLock() {
        oneShot(new RedisFails(lock, true)).migrate(flyway());

        assertThat(exitCodes).containsExactly(MigrationGate.Outcome.SCHEMA_CURRENT.exitCode());
        assertThat(flyway().info().applied()).as("every migration applied, Flyway's history deciding").hasSize(2);
    }

    private MigrationGateStrategy oneShot(DistributedLock through) {
        return gate(through, Duration.ofSeconds(30), Duration.ofMillis(300), SeatlockMigrationProperties.Timing.BEFORE_BEANS,
                true);
    }

    @Test
    void oneShotExitsThreeWhenTheLockWasLostWhileMigrating() {
        gate(Duration.ofMillis(900), Duration.ofSeconds(5), SeatlockMigrationProperties.Timing.BEFORE_BEANS, true)
                .migrate(flyway(stealingTheLockAfterEachMigration(this::stealOnce)));

        assertThat(exitCodes).containsExactly(MigrationGate.Outcome.LOST_WHILE_MIGRATING.exitCode());
    }

    /**
     * Redis failing on every look at who holds a lock (as when it fails just then), and on acquiring too if
     * {@code acquiring}; else the real lock acquires.
     */
    private record RedisFails(DistributedLock lock, boolean acquiring) implements DistributedLock {
        @Override
        public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
            if (acquiring) {
                throw down();
            }
            return lock.tryAcquire(name, ttl, impact);
        }

        @Override
        public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
                throws InterruptedException {
            if (acquiring) {
                throw down();
            }
            return lock.acquire(name, ttl, impact, maxWait);
        }

        @Override
        public Optional<Duration> remainingTtl(String name) {
            throw down();
        }

        @Override
        public Optional<String> holder(String name) {
            throw down();
        }

        @Override
        public Set<String> heldNames(String namePrefix) {
            throw down();
        }

        @Override
        public Set<String> held(Collection<String> names) {
            throw down();
        }

        private static LockUnavailableException down() {
            return new LockUnavailableException("Redis did not answer", new java.io.IOException("connection reset"));
        }
    }
}
