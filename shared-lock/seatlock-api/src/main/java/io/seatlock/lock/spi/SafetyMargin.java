package io.seatlock.lock.spi;

import io.seatlock.lock.LeaseTooShortException;
import io.seatlock.lock.OverlapImpact;

import java.time.Duration;

/**
 * For implementations: the part of a ttl a lock does not trust, because the store's clock may run faster than this
 * process's or the store may expire a lease a little early. A lease's local deadline is its ttl less this margin.
 *
 * @param clockDriftFactor share of the ttl kept as margin, in [0, 0.5)
 * @param minimum          the smallest margin, not negative
 */
public record SafetyMargin(double clockDriftFactor, Duration minimum) {

    /**
     * Checks both.
     *
     * @param clockDriftFactor share of the ttl kept as margin, in [0, 0.5)
     * @param minimum          the smallest margin, not negative
     * @throws IllegalArgumentException naming the first bad one
     */
    public SafetyMargin {
        if (clockDriftFactor < 0 || clockDriftFactor >= 0.5) {
            throw new IllegalArgumentException("clock drift factor must be in [0, 0.5), was " + clockDriftFactor);
        }
        if (minimum == null || minimum.isNegative()) {
            throw new IllegalArgumentException("min safety margin must not be negative");
        }
    }

    /**
     * The margin of a ttl: the drift factor's share of it, at least the minimum.
     *
     * @param ttl the lease's ttl
     * @return the margin in nanoseconds
     */
    public long nanos(Duration ttl) {
        return Math.max((long) (ttl.toNanos() * clockDriftFactor), minimum.toNanos());
    }

    /**
     * Refuses a ttl no longer than its margin: such a lease could never be valid.
     *
     * @param ttl the ttl asked for
     * @throws LeaseTooShortException if it is not longer than its margin
     */
    public void requireUsable(Duration ttl) {
        long margin = nanos(ttl);
        if (ttl.toNanos() <= margin) {
            throw new LeaseTooShortException(ttl, Duration.ofNanos(margin));
        }
    }

    /**
     * A request for a store that keeps ttls in whole milliseconds: the ttl truncated to them (the local deadline is
     * reckoned from the same), checked against this margin.
     *
     * @param name   the lock's name
     * @param ttl    its time to live
     * @param impact what breaks on overlap
     * @return the checked request
     * @throws IllegalArgumentException for a bad name or ttl; {@link LeaseTooShortException} for one the margin eats
     */
    public LockSpec spec(String name, Duration ttl, OverlapImpact impact) {
        LockSpec spec = new LockSpec(name, ttl, impact);
        Duration whole = Duration.ofMillis(ttl.toMillis());
        requireUsable(whole);
        return whole.equals(ttl) ? spec : new LockSpec(name, whole, impact);
    }
}
