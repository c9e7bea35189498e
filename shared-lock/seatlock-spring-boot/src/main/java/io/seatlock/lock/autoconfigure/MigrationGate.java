package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Every replica passes this gate on start: one holds the {@code migration} lock (renewed) and runs
 * Flyway; the others wait, bounded, then run Flyway too, which finds the history complete, validates it
 * and does nothing. Flyway's history table (and its own advisory lock) is the record that decides; the
 * lock keeps replicas from queueing inside the database. A replica that loses the lock while migrating
 * refuses to start.
 *
 * <p>The gate runs after the web server has started (a lifecycle phase after it), so probes are answered
 * while a replica waits or migrates: readiness {@code REFUSING_TRAFFIC}, liveness {@code CORRECT}; a
 * liveness probe does not kill a replica that is merely waiting. Work that needs the schema (scheduled
 * jobs, leader elections) starts after it. Every few seconds a waiting replica logs who holds the gate and
 * for how much longer.
 */
final class MigrationGate implements FlywayMigrationStrategy, SmartLifecycle {

    /** After the web server starts ({@code Integer.MAX_VALUE - 2048}), before elections ({@code DEFAULT_PHASE}). */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1536;
    static final String LOCK_NAME = "migration";
    private static final Logger log = LoggerFactory.getLogger(MigrationGate.class);
    private static final Duration REPORT_EVERY = Duration.ofSeconds(5);

    private final DistributedLock lock;
    private final Duration lockTtl;
    private final Duration maxWait;
    private final ApplicationEventPublisher events;
    private final Consumer<MigrateResult> onPassed;
    private volatile Flyway flyway;
    private volatile boolean running;

    /**
     * @param lockTtl  lease of the migration lock, renewed while migrating
     * @param maxWait  how long a replica waits for another one's migration before it fails to start
     * @param events   where availability changes are published (the application context)
     * @param onPassed told what this replica's Flyway run did (for metrics)
     */
    MigrationGate(DistributedLock lock, Duration lockTtl, Duration maxWait, ApplicationEventPublisher events,
                         Consumer<MigrateResult> onPassed) {
        this.lock = Objects.requireNonNull(lock, "lock");
        this.lockTtl = Objects.requireNonNull(lockTtl, "lockTtl");
        this.maxWait = Objects.requireNonNull(maxWait, "maxWait");
        this.events = Objects.requireNonNull(events, "events");
        this.onPassed = Objects.requireNonNull(onPassed, "onPassed");
    }

    /** Called by Spring Boot's Flyway initializer during start-up: remembered, run by {@link #start()}. */
    @Override
    public void migrate(Flyway flyway) {
        this.flyway = flyway;
    }

    @Override
    public void start() {
        Flyway pending = flyway;
        running = true;
        if (pending != null) {
            pass(pending);
        }
    }

    /** Waits for the gate and migrates under it; throws (so the replica does not start) if that fails. */
    MigrateResult pass(Flyway flyway) {
        AvailabilityChangeEvent.publish(events, this, LivenessState.CORRECT);
        AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
        LockLease lease;
        try {
            lease = waitForGate();
        } catch (LockUnavailableException e) {
            log.warn("migration lock unavailable ({}); relying on Flyway's own advisory lock", e.getMessage());
            return passed(flyway, flyway.migrate());
        }
        try (lease) {
            AtomicBoolean lost = new AtomicBoolean();
            lease.keepAlive(() -> lost.set(true));
            MigrateResult result = flyway.migrate();
            if (lost.get() || lease.isLost()) {
                throw new IllegalStateException("lost the '" + LOCK_NAME + "' lock while migrating (now at schema "
                        + result.targetSchemaVersion + "); refusing to start on a schema another replica may be changing");
            }
            return passed(flyway, result);
        }
    }

    private LockLease waitForGate() {
        long deadline = System.nanoTime() + maxWait.toNanos();
        long started = System.nanoTime();
        while (true) {
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            Duration slice = left.compareTo(REPORT_EVERY) < 0 ? left : REPORT_EVERY;
            try {
                return lock.acquire(LOCK_NAME, lockTtl, OverlapImpact.WASTED_WORK, slice.isNegative() ? Duration.ZERO : slice);
            } catch (LockNotAcquiredException e) {
                Duration waited = Duration.ofNanos(System.nanoTime() - started);
                if (System.nanoTime() - deadline >= 0) {
                    throw new LockNotAcquiredException("lock '" + LOCK_NAME + "' was still held by "
                            + lock.holder(LOCK_NAME).orElse("another replica") + " after " + maxWait
                            + " (seatlock.migration.max-wait); this replica does not start on an unknown schema");
                }
                log.info("waiting for the migration gate, held by {} for up to {} more; waited {} of {}",
                        lock.holder(LOCK_NAME).orElse("nobody now"),
                        lock.remainingTtl(LOCK_NAME).map(Duration::toString).orElse("0s"), waited, maxWait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the migration lock", e);
            }
        }
    }

    private MigrateResult passed(Flyway flyway, MigrateResult result) {
        onPassed.accept(result);
        // MigrateResult names a version only when this replica applied one; the history knows in every case.
        MigrationInfo current = flyway.info().current();
        log.info("migration gate passed: {} migration(s) executed here, schema at {}", result.migrationsExecuted,
                current == null ? "no migrations yet" : current.getVersion() != null
                        ? "version " + current.getVersion() + " (" + current.getDescription() + ")"
                        : current.getDescription());
        return result;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
