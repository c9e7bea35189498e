package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.OverlapImpact;
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
import java.util.List;
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
    private final RedisLockClient lock = RedisLockClient.standalone(servers.redis().uri(), Duration.ofSeconds(2),
            RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), new LockListener() {
                @Override
                public void onLost(String group, Duration held) {
                    lost.incrementAndGet();
                }
            });

    @AfterEach
    void close() {
        lock.close();
    }

    private final List<Object> availability = new CopyOnWriteArrayList<>();

    private MigrationGate gate(Duration ttl, Duration maxWait) {
        return new MigrationGate(lock, ttl, maxWait,
                event -> availability.add(((AvailabilityChangeEvent<?>) event).getState()), result -> { });
    }

    private Flyway flyway(Callback... callbacks) {
        return Flyway.configure().dataSource(servers.jdbcUrl(), servers.postgres().user(), servers.postgres().password())
                .locations("classpath:db/gate-test").callbacks(callbacks).load();
    }

    @Test
    void aReplicaThatLosesTheLockWhileMigratingRefusesToStart() {
        Callback lockStolenMidMigration = new Callback() {
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
                if (lost.get() == 0) {
                    servers.redis().with(r -> r.del(new RedisKeys(servers.keyPrefix()).lock("migration")));
                    await().atMost(Duration.ofSeconds(3)).until(() -> lost.get() == 1);
                }
            }

            @Override
            public String getCallbackName() {
                return "steal-migration-lock";
            }
        };

        assertThatThrownBy(() -> gate(Duration.ofMillis(900), Duration.ofSeconds(5)).pass(flyway(lockStolenMidMigration)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lost the 'migration' lock while migrating");
    }

    @Test
    void aReplicaThatWaitsPastItsBoundFailsWithAClearError() {
        lock.tryAcquire("migration", Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();

        assertThatThrownBy(() -> gate(Duration.ofSeconds(30), Duration.ofMillis(300)).pass(flyway()))
                .isInstanceOf(LockNotAcquiredException.class).hasMessageContaining("'migration'")
                .hasMessageContaining("seatlock.migration.max-wait");
        assertThat(flyway().info().applied()).isEmpty();
        // while it waited it told the platform: alive, not ready
        assertThat(availability).containsExactly(LivenessState.CORRECT, ReadinessState.REFUSING_TRAFFIC);
    }
}
