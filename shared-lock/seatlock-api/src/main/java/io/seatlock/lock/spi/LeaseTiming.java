package io.seatlock.lock.spi;

import io.seatlock.lock.internal.Durations;

import java.time.Duration;

/**
 * How a store's lock reckons time, the same on every store: the local safety margin (a share of each ttl, and a floor)
 * and the pauses of a blocking acquire. Checked when made.
 *
 * @param clockDriftFactor share of each ttl kept as the local validity safety margin, in [0, 0.5)
 * @param minSafetyMargin  smallest safety margin, not negative
 * @param minBackoff       first pause between attempts of a blocking acquire, positive
 * @param maxBackoff       longest pause between attempts of a blocking acquire, not below {@code minBackoff}; a waiter
 *                         not woken by a release tries again within it
 */
public record LeaseTiming(double clockDriftFactor, Duration minSafetyMargin, Duration minBackoff, Duration maxBackoff) {

    /**
     * Checks every value.
     *
     * @param clockDriftFactor see above
     * @param minSafetyMargin  see above
     * @param minBackoff       see above
     * @param maxBackoff       see above
     * @throws IllegalArgumentException naming the first bad one
     */
    public LeaseTiming {
        new SafetyMargin(clockDriftFactor, minSafetyMargin); // checks both
        Durations.requireBackoff(minBackoff, maxBackoff);
    }

    /**
     * A margin of 1 % of the ttl and at least 1 ms (Redis keeps expiry in whole milliseconds, so a key may go up to a
     * millisecond before the client's reckoning: a 1 ms ttl can never be valid, 2 ms can), back-off from 10 ms to
     * 200 ms.
     *
     * @return the default timing
     */
    public static LeaseTiming defaults() {
        return new LeaseTiming(0.01, Duration.ofMillis(1), Duration.ofMillis(10), Duration.ofMillis(200));
    }

    /**
     * This timing with another safety margin.
     *
     * @param factor  share of the ttl, in [0, 0.5)
     * @param minimum the smallest margin, not negative
     * @return new timing
     * @throws IllegalArgumentException for a factor or minimum out of range
     */
    public LeaseTiming withSafetyMargin(double factor, Duration minimum) {
        return new LeaseTiming(factor, minimum, minBackoff, maxBackoff);
    }

    /**
     * This timing with other pauses between a blocking acquire's attempts (a release wakes a waiter sooner).
     *
     * @param first   the first pause, positive
     * @param longest the longest pause, not below {@code first}
     * @return new timing
     * @throws IllegalArgumentException for a pause that is not positive, or a longest below the first
     */
    public LeaseTiming withBackoff(Duration first, Duration longest) {
        return new LeaseTiming(clockDriftFactor, minSafetyMargin, first, longest);
    }

    /**
     * The part of a ttl the lock does not count on.
     *
     * @return the margin
     */
    public SafetyMargin safetyMargin() {
        return new SafetyMargin(clockDriftFactor, minSafetyMargin);
    }
}
