package io.seatlock.lock.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.lock.migration.MigrationGate;
import org.springframework.beans.factory.ObjectProvider;

/** Counts the migrations this replica ran behind the gate ({@code seatlock.migrations.executed}). */
final class MigrationGateMetrics {

    private final ObjectProvider<MeterRegistry> registry;

    /** The registry is looked up when the gate has passed: Boot's metrics may be configured after the gate. */
    MigrationGateMetrics(ObjectProvider<MeterRegistry> registry) {
        this.registry = registry;
    }

    void record(MigrationGate.Passage passage) {
        registry.ifAvailable(r -> r.counter("seatlock.migrations.executed").increment(passage.result().migrationsExecuted));
    }
}
