package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.migration.MigrationGate;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.seatlock.lock.LockNotAcquiredException;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.IntConsumer;

/**
 * Puts Spring Boot's Flyway run behind the {@link MigrationGate}, where the settings say. By default the gate runs
 * where Spring Boot runs Flyway, before the beans that need the schema
 * ({@link SeatlockMigrationProperties.Timing#BEFORE_BEANS}). Chosen explicitly, it runs after the web server has
 * started instead, so probes are answered while a replica waits or migrates: readiness {@code REFUSING_TRAFFIC},
 * liveness {@code CORRECT}. In the one-shot mode it migrates and ends the process with the gate's exit code. The same on
 * each Spring Boot line; a subclass per line makes it that line's {@code FlywayMigrationStrategy}.
 */
class MigrationGateStrategy implements SmartLifecycle {

    /** In the after-web-server timing: after the web server starts ({@code Integer.MAX_VALUE - 2048}), before elections. */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1536;
    /** A pass through the gate. */
    static final String GATE = "seatlock.migration.gate";
    /** Shorter than a round trip to a busy store: no wait worth the name. */
    private static final Duration WAITED = Duration.ofMillis(100);

    private final MigrationGate gate;
    private final SeatlockMigrationProperties settings;
    private final ApplicationEventPublisher events;
    private final IntConsumer exit;
    private final ObservationRegistry observations;
    private final Supplier<MigrationGate.@Nullable Passage> lastPassage;
    private volatile @Nullable Flyway flyway;
    private volatile boolean running;

    /**
     * @param gate     the gate, with its lease and bound
     * @param settings timing and mode
     * @param events   where availability changes are published (the application context)
     * @param exit     ends the process in the one-shot mode ({@code System::exit})
     * @param observations where each pass is observed ({@value #GATE}; {@link ObservationRegistry#NOOP} for none)
     * @param lastPassage how the gate's last pass went, as the gate told it
     */
    MigrationGateStrategy(MigrationGate gate, SeatlockMigrationProperties settings, ApplicationEventPublisher events,
                          IntConsumer exit, ObservationRegistry observations,
                          Supplier<MigrationGate.@Nullable Passage> lastPassage) {
        this.gate = Objects.requireNonNull(gate, "gate");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.events = Objects.requireNonNull(events, "events");
        this.exit = Objects.requireNonNull(exit, "exit");
        this.observations = Objects.requireNonNull(observations, "observations");
        this.lastPassage = Objects.requireNonNull(lastPassage, "lastPassage");
    }

    /**
     * Called by Spring Boot's Flyway initializer during start-up, before the beans that need the schema:
     * passes the gate there, remembers Flyway for {@link #start()} after the web server, or migrates and exits.
     */
    public void migrate(Flyway flyway) {
        if (settings.only()) {
            exit.accept(gate.migrateOnly(flyway).exitCode());
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

    /**
     * A pass through the gate, observed: outcome {@code migrated} (this replica ran migrations), {@code waited} (it
     * waited for another replica's), {@code current} (nothing to do, no wait), {@code fell-back} (the lock was
     * unavailable), {@code waited-too-long} or {@code failed}.
     */
    private void pass(Flyway flyway) {
        Observation observation = Observation.createNotStarted(GATE, observations).contextualName("seatlock migration gate")
                .start();
        try (Observation.Scope ignored = observation.openScope()) {
            gate.pass(flyway);
            MigrationGate.Passage passage = lastPassage.get();
            observation.lowCardinalityKeyValue("seatlock.outcome", passage == null ? "current"
                    : passage.fellBack() ? "fell-back" : passage.result().migrationsExecuted > 0 ? "migrated"
                    : passage.waited().compareTo(WAITED) > 0 ? "waited" : "current");
        } catch (RuntimeException e) {
            observation.lowCardinalityKeyValue("seatlock.outcome",
                    e instanceof LockNotAcquiredException ? "waited-too-long" : "failed");
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
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
