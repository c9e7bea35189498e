package io.seatlock.lock;

import java.time.Duration;

/**
 * A ttl no longer than the safety margin kept for clock drift: such a lease would be invalid the moment
 * it is granted, so it is refused before anything is sent to the store.
 */
public class LeaseTooShortException extends IllegalArgumentException {
    /**
     * A refused ttl.
     * @param ttl          the ttl asked for
     * @param safetyMargin the margin it had to exceed
     */
    public LeaseTooShortException(Duration ttl, Duration safetyMargin) {
        super("lock ttl " + ttl + " is not longer than the safety margin of " + safetyMargin
                + " kept for clock drift, so the lease could never be valid; use a longer ttl");
    }
}
