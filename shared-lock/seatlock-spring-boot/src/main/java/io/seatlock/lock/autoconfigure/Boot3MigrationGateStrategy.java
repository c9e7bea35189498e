package io.seatlock.lock.autoconfigure;

import io.micrometer.observation.ObservationRegistry;
import io.seatlock.lock.migration.MigrationGate;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.flyway.FlywayMigrationStrategy;
import org.springframework.context.ApplicationEventPublisher;

import java.util.function.IntConsumer;
import java.util.function.Supplier;

/** The migration gate as Spring Boot 3.5's {@link FlywayMigrationStrategy}. */
final class Boot3MigrationGateStrategy extends MigrationGateStrategy implements FlywayMigrationStrategy {

    Boot3MigrationGateStrategy(MigrationGate gate, SeatlockMigrationProperties settings, ApplicationEventPublisher events,
                               IntConsumer exit, ObservationRegistry observations,
                               Supplier<MigrationGate.@Nullable Passage> lastPassage) {
        super(gate, settings, events, exit, observations, lastPassage);
    }
}
