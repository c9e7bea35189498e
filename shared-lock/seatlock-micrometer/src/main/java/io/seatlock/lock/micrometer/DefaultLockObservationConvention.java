package io.seatlock.lock.micrometer;

import io.micrometer.common.KeyValues;
import io.seatlock.lock.OverlapImpact;

/**
 * The lock's observations as {@link LockObservations} documents them: {@value LockObservations#ACQUIRE},
 * {@value LockObservations#LEASE}, {@value LockObservations#RENEWAL_FAILED} and {@value LockObservations#FENCING_REJECTED};
 * low-cardinality keys {@value LockObservations#GROUP}, {@value LockObservations#IMPACT}, {@value LockObservations#MODE}
 * and {@value LockObservations#OUTCOME} where the kind has them; high-cardinality keys {@value LockObservations#NAME} and
 * {@value LockObservations#TOKEN}. Extend it to add or change keys.
 */
public class DefaultLockObservationConvention implements LockObservationConvention {

    /** The convention as documented. */
    public DefaultLockObservationConvention() {
    }

    @Override
    public String getName(LockObservationContext.Kind kind) {
        return switch (kind) {
            case ACQUIRE -> LockObservations.ACQUIRE;
            case LEASE -> LockObservations.LEASE;
            case RENEWAL_FAILED -> LockObservations.RENEWAL_FAILED;
            case FENCING_REJECTED -> LockObservations.FENCING_REJECTED;
        };
    }

    @Override
    public String getContextualName(LockObservationContext context) {
        String what = switch (context.kind()) {
            case ACQUIRE -> "acquire";
            case LEASE -> "lease";
            case RENEWAL_FAILED -> "renewal failed";
            case FENCING_REJECTED -> "fencing rejected";
        };
        return "seatlock " + what + " " + context.group();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
        KeyValues keys = KeyValues.of(LockObservations.GROUP, context.group());
        OverlapImpact impact = context.impact();
        if (impact != null) {
            keys = keys.and(LockObservations.IMPACT, impact.name());
        }
        String mode = context.mode();
        if (mode != null) {
            keys = keys.and(LockObservations.MODE, mode);
        }
        String outcome = context.outcome();
        if (outcome != null) {
            keys = keys.and(LockObservations.OUTCOME, outcome);
        }
        return keys;
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(LockObservationContext context) {
        KeyValues keys = context.lockName().isEmpty() ? KeyValues.empty()
                : KeyValues.of(LockObservations.NAME, context.lockName());
        Long token = context.fencingToken();
        return token == null ? keys : keys.and(LockObservations.TOKEN, Long.toString(token));
    }
}
