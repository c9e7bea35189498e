package io.seatlock.lock.micrometer;

import io.micrometer.observation.Observation;
import io.seatlock.lock.OverlapImpact;
import org.jspecify.annotations.Nullable;

/**
 * What one of the lock's observations is about, for a {@link LockObservationConvention} to name and tag: its kind, the
 * lock's full name and its group's tag (already within {@link LockGroups}' cap), and, where the kind has them, the
 * overlap impact, the acquire's mode, the outcome and the lease's fencing token.
 */
public final class LockObservationContext extends Observation.Context {

    /** The lock's observations. */
    public enum Kind {
        /** A {@code tryAcquire}, {@code tryAcquireUnlessDecided} or waiting {@code acquire}, as long as the call takes. */
        ACQUIRE,
        /** A lease this replica holds, from grant to release or loss (a long task). */
        LEASE,
        /** A background renewal the lock's store did not answer. */
        RENEWAL_FAILED,
        /** A write a fence refused. */
        FENCING_REJECTED
    }

    private final Kind kind;
    private final String lockName;
    private final String group;
    private final @Nullable OverlapImpact impact;
    private final @Nullable String mode;
    private final @Nullable Long fencingToken;
    private volatile @Nullable String outcome;

    LockObservationContext(Kind kind, String lockName, String group, @Nullable OverlapImpact impact,
                           @Nullable String mode, @Nullable Long fencingToken) {
        this.kind = kind;
        this.lockName = lockName;
        this.group = group;
        this.impact = impact;
        this.mode = mode;
        this.fencingToken = fencingToken;
    }

    /**
     * Which observation this is.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * The full lock name (a fence's resource); empty for a failed renewal, which knows only its group.
     *
     * @return the name
     */
    public String lockName() {
        return lockName;
    }

    /**
     * The tag of the lock's group.
     *
     * @return the group, or {@value LockGroups#OVERFLOW} past the cap
     */
    public String group() {
        return group;
    }

    /**
     * What an overlap of two holders breaks, for an acquire and a lease.
     *
     * @return the impact, or null
     */
    public @Nullable OverlapImpact impact() {
        return impact;
    }

    /**
     * How an acquire asked: {@code try}, {@code unless-decided} or {@code wait}.
     *
     * @return the mode, or null for the other kinds
     */
    public @Nullable String mode() {
        return mode;
    }

    /**
     * The lease's fencing token.
     *
     * @return the token, or null for the other kinds
     */
    public @Nullable Long fencingToken() {
        return fencingToken;
    }

    /**
     * How it ended, once it has: see {@link LockObservations#OUTCOME}.
     *
     * @return the outcome, or null while it runs
     */
    public @Nullable String outcome() {
        return outcome;
    }

    void outcome(String value) {
        this.outcome = value;
    }
}
