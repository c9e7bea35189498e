package io.seatlock.lock.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import org.jspecify.annotations.Nullable;

/**
 * Names and tags the lock's observations, as Spring's own conventions do theirs: give {@link LockObservations} one of
 * your own (the Spring Boot starter takes a bean of this type) to rename them or change their keys, usually by
 * extending {@link DefaultLockObservationConvention}. The name is per {@link LockObservationContext.Kind}; keep the
 * group's tag ({@link LockObservationContext#group()}) as the only per-lock low-cardinality value.
 */
public interface LockObservationConvention extends ObservationConvention<LockObservationContext> {

    /**
     * The observation's name for a kind, which the metrics take as their name.
     *
     * @param kind the observation's kind
     * @return its name, e.g. {@value LockObservations#ACQUIRE}
     */
    String getName(LockObservationContext.Kind kind);

    /** Not used: the name depends on the kind ({@link #getName(LockObservationContext.Kind)}). */
    @Override
    default @Nullable String getName() {
        return null;
    }

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof LockObservationContext;
    }
}
