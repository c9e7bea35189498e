package io.seatlock.lock.migration;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.spi.LockSpec;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Every replica passes this gate on start: one holds the {@code migration} lock (renewed) and runs Flyway; the others
 * wait, bounded, then run Flyway too, which finds the history complete, validates it and does nothing. Flyway's
 * history table (and its own advisory lock) is the record that decides; the lock keeps replicas from queueing inside
 * the database. A replica that loses the lock while migrating refuses to start. A replica that finds the gate held
 * says at once whom it waits for, then every few seconds. Needs {@code org.flywaydb:flyway-core}; Spring Boot's
 * auto-configuration puts Flyway behind it, and any application can call {@link #pass} itself.
 */
public final class MigrationGate {

    /** The lock the migrating replica holds. */
    public static final String LOCK_NAME = "migration";
    /** What {@link #migrateOnly} found, and the exit code a one-shot migration job ends with for it. */
    public enum Outcome {
        /** The schema is current (migrated here or by another replica): exit code 0. */
        SCHEMA_CURRENT(0),
        /** A migration or the validation failed: exit code 1. */
        MIGRATION_FAILED(1),
        /** Another replica still held the gate after {@code maxWait}: exit code 2. */
        WAITED_TOO_LONG(2),
        /** The lock was lost while migrating; the schema's state is unknown: exit code 3. */
        LOST_WHILE_MIGRATING(3);

        private final int exitCode;

        Outcome(int exitCode) {
            this.exitCode = exitCode;
        }

        /**
         * The process's exit code for this outcome.
         *
         * @return 0 to 3
         */
        public int exitCode() {
            return exitCode;
        }
    }

    private static final Logger log = LoggerFactory.getLogger(MigrationGate.class);
    private static final Duration REPORT_EVERY = Duration.ofSeconds(5);

    private final DistributedLock lock;
    private final Duration lockTtl;
    private final Duration maxWait;
    private final Consumer<Passage> onPassed;

    /**
     * How this replica passed the gate, for metrics and observations.
     *
     * @param result   what this replica's Flyway run did
     * @param waited   how long it waited for another replica's migration (zero if the gate was free)
     * @param fellBack whether the lock was unavailable, so it migrated under Flyway's own advisory lock instead
     */
    public record Passage(MigrateResult result, Duration waited, boolean fellBack) {
    }

    /**
     * A gate; nothing is asked of the lock yet.
     *
     * @param lock     the lock every replica shares
     * @param lockTtl  the migration lock's lease, renewed while migrating
     * @param maxWait  how long a replica waits for another one's migration
     * @param onPassed told how this replica passed: what its Flyway run did, how long it waited, whether it fell back
     * @throws IllegalArgumentException for a ttl out of range or a negative wait
     */
    public MigrationGate(DistributedLock lock, Duration lockTtl, Duration maxWait, Consumer<Passage> onPassed) {
        this.lock = Objects.requireNonNull(lock, "lock");
        this.lockTtl = LockSpec.requireValidTtl(lockTtl);
        LockSpec.requireValidWait(maxWait);
        this.maxWait = maxWait;
        this.onPassed = Objects.requireNonNull(onPassed, "onPassed");
    }

    /**
     * The one-shot mode of a deploy pipeline: passes the gate, logs one line on how it ended, and answers the exit
     * code for it; never throws.
     *
     * @param flyway the migrations to run
     * @return what it found, each with its exit code
     */
    public Outcome migrateOnly(Flyway flyway) {
        String mode = "seatlock.migration.only: ";
        try {
            pass(flyway);
            log.info(mode + "schema is current; exit code {}", Outcome.SCHEMA_CURRENT.exitCode());
            return Outcome.SCHEMA_CURRENT;
        } catch (LockNotAcquiredException e) {
            log.error(mode + "schema NOT known to be current, exit code {}: {}", Outcome.WAITED_TOO_LONG.exitCode(),
                    e.getMessage());
            return Outcome.WAITED_TOO_LONG;
        } catch (LostWhileMigrating e) {
            log.error(mode + "schema state unknown, exit code {}: {}", Outcome.LOST_WHILE_MIGRATING.exitCode(),
                    e.getMessage());
            return Outcome.LOST_WHILE_MIGRATING;
        } catch (RuntimeException e) {
            log.error(mode + "migration failed, exit code {}: {}", Outcome.MIGRATION_FAILED.exitCode(), e.getMessage());
            log.debug("migration failure", e);
            return Outcome.MIGRATION_FAILED;
        }
    }

    /**
     * Waits for the gate and migrates under it (or, where the lock is unavailable, under Flyway's own advisory lock).
     *
     * @param flyway the migrations to run
     * @return what this replica's Flyway run did
     * @throws LockNotAcquiredException if another replica still held the gate after {@code maxWait}
     * @throws IllegalStateException    if the lock was lost while migrating, or the wait was interrupted
     * @throws RuntimeException         Flyway's own, if a migration or the validation failed
     */
    public MigrateResult pass(Flyway flyway) {
        LockLease lease;
        long started = System.nanoTime();
        try {
            lease = waitForGate();
        } catch (LockUnavailableException e) {
            log.atWarn().addKeyValue("seatlock.event", "migration-gate-fell-back").addKeyValue("seatlock.lock.name", LOCK_NAME)
                    .log("migration gate fell back: the '{}' lock is unavailable ({}); migrating under Flyway's own "
                            + "advisory lock instead", LOCK_NAME, e.getMessage());
            return passed(flyway, flyway.migrate(), Duration.ofNanos(System.nanoTime() - started), true);
        }
        Duration waited = Duration.ofNanos(System.nanoTime() - started);
        try (lease) {
            AtomicBoolean lost = new AtomicBoolean();
            lease.keepAlive(() -> lost.set(true));
            MigrateResult result = flyway.migrate();
            if (lost.get() || lease.isLost()) {
                throw new LostWhileMigrating("lost the '" + LOCK_NAME + "' lock while migrating (now at schema "
                        + result.targetSchemaVersion + "); refusing to start on a schema another replica may be changing");
            }
            return passed(flyway, result, waited, false);
        }
    }

    private LockLease waitForGate() {
        long deadline = System.nanoTime() + LockSpec.waitNanos(maxWait);
        long started = System.nanoTime();
        Optional<LockLease> atOnce = lock.tryAcquire(LOCK_NAME, lockTtl, OverlapImpact.WASTED_WORK);
        if (atOnce.isPresent()) {
            return atOnce.get();
        }
        log.atInfo().addKeyValue("seatlock.event", "migration-gate-waiting").addKeyValue("seatlock.lock.name", LOCK_NAME)
                .log("migration gate held by {}; waiting up to {} (seatlock.migration.max-wait)", holderNow(), maxWait);
        while (true) {
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            Duration slice = left.compareTo(REPORT_EVERY) < 0 ? left : REPORT_EVERY;
            try {
                return lock.acquire(LOCK_NAME, lockTtl, OverlapImpact.WASTED_WORK, slice.isNegative() ? Duration.ZERO : slice);
            } catch (LockNotAcquiredException e) {
                Duration waited = Duration.ofNanos(System.nanoTime() - started);
                if (System.nanoTime() - deadline >= 0) {
                    throw new LockNotAcquiredException("lock '" + LOCK_NAME + "' was still held by "
                            + describe(() -> lock.holder(LOCK_NAME).orElse("another replica")) + " after " + maxWait
                            + " (seatlock.migration.max-wait); this replica does not start on an unknown schema");
                }
                log.atInfo().addKeyValue("seatlock.event", "migration-gate-waiting")
                        .addKeyValue("seatlock.lock.name", LOCK_NAME).addKeyValue("seatlock.waited-ms", waited.toMillis())
                        .log("waiting for the migration gate, held by {}; waited {} of {}", holderNow(), waited, maxWait);
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
     * A detail for a log line or a message, read from the lock's store: never a reason to change course. The store failing just then
     * must not turn "still held after max-wait" into the fallback for a store that is down (migrating under Flyway's
     * own lock while another replica holds the gate).
     */
    private static String describe(Supplier<String> detail) {
        try {
            return detail.get();
        } catch (LockUnavailableException e) {
            return "unknown (the lock's store did not answer: " + e.getMessage() + ")";
        }
    }

    private MigrateResult passed(Flyway flyway, MigrateResult result, Duration waited, boolean fellBack) {
        onPassed.accept(new Passage(result, waited, fellBack));
        // MigrateResult names a version only when this replica applied one; the history knows in every case.
        MigrationInfo current = flyway.info().current();
        log.atInfo().addKeyValue("seatlock.event", fellBack ? "migration-gate-fell-back" : result.migrationsExecuted > 0
                        ? "migration-gate-migrated" : "migration-gate-passed")
                .addKeyValue("seatlock.migrations-executed", result.migrationsExecuted)
                .addKeyValue("seatlock.waited-ms", waited.toMillis())
                .log("migration gate passed: {} migration(s) executed here, schema at {}", result.migrationsExecuted,
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

}
