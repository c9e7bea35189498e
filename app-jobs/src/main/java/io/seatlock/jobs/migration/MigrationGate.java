package io.seatlock.jobs.migration;

import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.jobs.JobsProperties;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.stereotype.Component;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Every replica passes this gate on start: one holds the {@code migration} lock (renewed) and runs
 * Flyway; the others wait for the lock, then run Flyway too, which finds the history complete and does
 * nothing. Flyway's history table (and its own advisory lock) is the idempotent record; the Redis lock
 * only keeps replicas from queueing inside the database. A replica that loses the lock while migrating
 * refuses to start.
 */
@Component
class MigrationGate implements FlywayMigrationStrategy {

    private static final Logger log = LoggerFactory.getLogger(MigrationGate.class);

    private final DistributedLock lock;
    private final JobsProperties.Migration settings;
    private final MeterRegistry meters;

    MigrationGate(DistributedLock lock, JobsProperties properties, MeterRegistry meters) {
        this.lock = lock;
        this.settings = properties.migration();
        this.meters = meters;
    }

    @Override
    public void migrate(Flyway flyway) {
        LockLease lease;
        try {
            lease = lock.acquire("migration", settings.lockTtl(), OverlapImpact.WASTED_WORK, settings.maxWait());
        } catch (LockUnavailableException e) {
            log.warn("migration lock unavailable ({}); relying on Flyway's own advisory lock", e.getMessage());
            record(flyway.migrate());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the migration lock", e);
        }
        try (lease) {
            AtomicBoolean lost = new AtomicBoolean();
            lease.keepAlive(() -> lost.set(true));
            MigrateResult result = flyway.migrate();
            if (lost.get()) {
                throw new IllegalStateException("lost the 'migration' lock while migrating (now at schema "
                        + result.targetSchemaVersion + "); refusing to start on a schema another replica may be changing");
            }
            record(result);
        }
    }

    private void record(MigrateResult result) {
        meters.counter("jobs.migrations.executed").increment(result.migrationsExecuted);
        log.info("migration gate passed: {} migration(s) executed here, schema at {}", result.migrationsExecuted,
                result.targetSchemaVersion);
    }
}
