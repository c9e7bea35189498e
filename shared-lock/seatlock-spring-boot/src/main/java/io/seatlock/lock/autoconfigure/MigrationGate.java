package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.spi.LockSpec;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.MigrateResult;
import org.jspecify.annotations.Nullable;
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
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Every replica passes this gate on start: one holds the {@code migration} lock (renewed) and runs
 * Flyway; the others wait, bounded, then run Flyway too, which finds the history complete, validates it
 * and does nothing. Flyway's history table (and its own advisory lock) is the record that decides; the
 * lock keeps replicas from queueing inside the database. A replica that loses the lock while migrating
 * refuses to start. Every few seconds a waiting replica logs who holds the gate and for how much longer.
 *
 * <p>By default the gate runs where Spring Boot runs Flyway, before the beans that need the schema
 * ({@link SeatlockMigrationProperties.Timing#BEFORE_BEANS}). Chosen explicitly, it runs after the web server
 * has started instead, so probes are answered while a replica waits or migrates: readiness
 * {@code REFUSING_TRAFFIC}, liveness {@code CORRECT}. In the one-shot mode it migrates and ends the process
 * with an exit code that says whether the schema is current.
 */
final class MigrationGate implements FlywayMigrationStrategy, SmartLifecycle {

    /** In the after-web-server timing: after the web server starts ({@code Integer.MAX_VALUE - 2048}), before elections. */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1536;
    static final String LOCK_NAME = "migration";
    private static final Logger log = LoggerFactory.getLogger(MigrationGate.class);
    private static final Duration REPORT_EVERY = Duration.ofSeconds(5);

    /** Exit codes of the one-shot mode ({@code seatlock.migration.only}). */
    static final int SCHEMA_CURRENT = 0, MIGRATION_FAILED = 1, WAITED_TOO_LONG = 2, LOST_WHILE_MIGRATING = 3;

    private final DistributedLock lock;
    private final SeatlockMigrationProperties settings;
    private final ApplicationEventPublisher events;
    private final Consumer<MigrateResult> onPassed;
    private final IntConsumer exit;
    private volatile @Nullable Flyway flyway;
    private volatile boolean running;

    /**
     * @param settings lease, bound, timing and mode of the gate
     * @param events   where availability changes are published (the application context)
     * @param onPassed told what this replica's Flyway run did (for metrics)
     * @param exit     ends the process in the one-shot mode ({@code System::exit})
     */
    MigrationGate(DistributedLock lock, SeatlockMigrationProperties settings, ApplicationEventPublisher events,
                  Consumer<MigrateResult> onPassed, IntConsumer exit) {
        this.lock = Objects.requireNonNull(lock, "lock");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.events = Objects.requireNonNull(events, "events");
        this.onPassed = Objects.requireNonNull(onPassed, "onPassed");
        this.exit = Objects.requireNonNull(exit, "exit");
    }

    /**
     * Called by Spring Boot's Flyway initializer during start-up, before the beans that need the schema:
     * passes the gate there, remembers Flyway for {@link #start()} after the web server, or migrates and exits.
     */
    @Override
    public void migrate(Flyway flyway) {
        if (settings.only()) {
            exit.accept(migrateOnly(flyway));
        } else if (settings.timing() == SeatlockMigrationProperties.Timing.BEFORE_BEANS) {
            pass(flyway);
        } else {
            this.flyway = flyway;
        }
    }

    @Override
    public void start() {
        Flyway pending = flyway;
        running = true;
        if (pending != null) {
            AvailabilityChangeEvent.publish(events, this, LivenessState.CORRECT);
            AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
            pass(pending);
        }
    }

    /** The one-shot mode: one line on how it ended, and the exit code for it. */
    int migrateOnly(Flyway flyway) {
        String mode = "seatlock.migration.only: ";
        try {
            pass(flyway);
            log.info(mode + "schema is current; exit code {}", SCHEMA_CURRENT);
            return SCHEMA_CURRENT;
        } catch (LockNotAcquiredException e) {
            log.error(mode + "schema NOT known to be current, exit code {}: {}", WAITED_TOO_LONG, e.getMessage());
            return WAITED_TOO_LONG;
        } catch (LostWhileMigrating e) {
            log.error(mode + "schema state unknown, exit code {}: {}", LOST_WHILE_MIGRATING, e.getMessage());
            return LOST_WHILE_MIGRATING;
        } catch (RuntimeException e) {
            log.error(mode + "migration failed, exit code {}: {}", MIGRATION_FAILED, e.getMessage());
            log.debug("migration failure", e);
            return MIGRATION_FAILED;
        }
    }

    /** Waits for the gate and migrates under it; throws (so the replica does not start) if that fails. */
    MigrateResult pass(Flyway flyway) {
        LockLease lease;
        try {
            lease = waitForGate();
        } catch (LockUnavailableException e) {
            log.warn("migration gate fell back: the '{}' lock is unavailable ({}); migrating under Flyway's own advisory "
                    + "lock instead", LOCK_NAME, e.getMessage());
            return passed(flyway, flyway.migrate());
        }
        try (lease) {
            AtomicBoolean lost = new AtomicBoolean();
            lease.keepAlive(() -> lost.set(true));
            MigrateResult result = flyway.migrate();
            if (lost.get() || lease.isLost()) {
                throw new LostWhileMigrating("lost the '" + LOCK_NAME + "' lock while migrating (now at schema "
                        + result.targetSchemaVersion + "); refusing to start on a schema another replica may be changing");
            }
            return passed(flyway, result);
        }
    }

    private LockLease waitForGate() {
        Duration maxWait = settings.maxWait();
        long deadline = System.nanoTime() + LockSpec.waitNanos(maxWait);
        long started = System.nanoTime();
        Optional<LockLease> atOnce = lock.tryAcquire(LOCK_NAME, settings.lockTtl(), OverlapImpact.WASTED_WORK);
        if (atOnce.isPresent()) {
            return atOnce.get();
        }
        log.info("migration gate held by {}; waiting up to {} (seatlock.migration.max-wait)", holderNow(), maxWait);
        while (true) {
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            Duration slice = left.compareTo(REPORT_EVERY) < 0 ? left : REPORT_EVERY;
            try {
                return lock.acquire(LOCK_NAME, settings.lockTtl(), OverlapImpact.WASTED_WORK, slice.isNegative() ? Duration.ZERO : slice);
            } catch (LockNotAcquiredException e) {
                Duration waited = Duration.ofNanos(System.nanoTime() - started);
                if (System.nanoTime() - deadline >= 0) {
                    throw new LockNotAcquiredException("lock '" + LOCK_NAME + "' was still held by "
                            + describe(() -> lock.holder(LOCK_NAME).orElse("another replica")) + " after " + maxWait
                            + " (seatlock.migration.max-wait); this replica does not start on an unknown schema");
                }
                log.info("waiting for the migration gate, held by {}; waited {} of {}", holderNow(), waited, maxWait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the migration lock", e);
            }
        }
    }

    /** Who holds the gate and for how much longer at most, for a waiting replica's log line. */
    private String holderNow() {
        return describe(() -> lock.holder(LOCK_NAME).orElse("nobody now")) + " for up to "
                + describe(() -> lock.remainingTtl(LOCK_NAME).map(Duration::toString).orElse("0s")) + " more";
    }

    /**
     * A detail for a log line or a message, read from Redis: never a reason to change course. Redis failing just then
     * must not turn "still held after max-wait" into the fallback for a Redis that is down (migrating under Flyway's
     * own lock while another replica holds the gate).
     */
    private static String describe(Supplier<String> detail) {
        try {
            return detail.get();
        } catch (LockUnavailableException e) {
            return "unknown (Redis did not answer: " + e.getMessage() + ")";
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

    /** The lock was lost while this replica migrated: another may be changing the schema. */
    private static final class LostWhileMigrating extends IllegalStateException {
        LostWhileMigrating(String message) {
            super(message);
        }
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
