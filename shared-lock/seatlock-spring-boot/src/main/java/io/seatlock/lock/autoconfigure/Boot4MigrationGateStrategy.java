package io.seatlock.lock.autoconfigure;

import io.micrometer.observation.ObservationRegistry;
import io.seatlock.lock.migration.MigrationGate;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.ApplicationEventPublisher;

import java.util.function.IntConsumer;
import java.util.function.Supplier;

/** The migration gate as Spring Boot 4's {@link FlywayMigrationStrategy}. */
final class Boot4MigrationGateStrategy extends MigrationGateStrategy implements FlywayMigrationStrategy {

    Boot4MigrationGateStrategy(MigrationGate gate, SeatlockMigrationProperties settings, ApplicationEventPublisher events,
                               IntConsumer exit, ObservationRegistry observations,
                               Supplier<MigrationGate.@Nullable Passage> lastPassage) {
        super(gate, settings, events, exit, observations, lastPassage);
    }
}
