package io.seatlock.lock.autoconfigure;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.flywaydb.core.api.output.MigrateResult;

/** Counts the migrations this replica ran behind the gate ({@code seatlock.migrations.executed}). */
final class MigrationGateMetrics {

    private final Counter executed;

    MigrationGateMetrics(MeterRegistry registry) {
        this.executed = registry.counter("seatlock.migrations.executed");
    }

    void record(MigrateResult result) {
        executed.increment(result.migrationsExecuted);
    }
}
