package io.seatlock.lock.migration;

import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.InMemoryLock;
import io.seatlock.test.ManualClock;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The gate without Spring: an application calls it with its own Flyway and any {@code DistributedLock}. */
class MigrationGateTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("RecipesMigrationGateTest");

    private Flyway flyway() {
        return Flyway.configure().dataSource(servers.dataSource()).locations("classpath:db/gate-recipe")
                .cleanDisabled(false).load();
    }

    @Test
    void oneReplicaMigratesUnderTheGateAndAnotherWaitsForItsBoundThenSaysWhoHeldIt() {
        InMemoryLock lock = new InMemoryLock(new ManualClock(), "replica-1");
        flyway().clean();
        List<Integer> executed = new CopyOnWriteArrayList<>();

        new MigrationGate(lock, Duration.ofSeconds(30), Duration.ofSeconds(5), r -> executed.add(r.result().migrationsExecuted))
                .pass(flyway());
        assertThat(executed).containsExactly(1);
        assertThat(flyway().info().applied()).hasSize(1);
        assertThat(lock.holder(MigrationGate.LOCK_NAME)).as("the gate is free again").isEmpty();

        lock.tryAcquire(MigrationGate.LOCK_NAME, Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();
        MigrationGate waiting = new MigrationGate(lock, Duration.ofSeconds(30), Duration.ZERO, r -> executed.add(-1));
        assertThatThrownBy(() -> waiting.pass(flyway())).isInstanceOf(LockNotAcquiredException.class)
                .hasMessageContaining("still held by replica-1");
        assertThat(waiting.migrateOnly(flyway())).isEqualTo(MigrationGate.Outcome.WAITED_TOO_LONG);
        assertThat(executed).as("nothing ran while another replica held the gate").containsExactly(1);
    }

    @Test
    void aBadLeaseOrWaitIsRefusedWhenTheGateIsMade() {
        InMemoryLock lock = new InMemoryLock(new ManualClock(), "replica-1");
        assertThatThrownBy(() -> new MigrationGate(lock, Duration.ZERO, Duration.ofSeconds(5), r -> { }))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MigrationGate(lock, Duration.ofSeconds(30), Duration.ofSeconds(-1), r -> { }))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
