package io.seatlock.lock.spi;

import org.jspecify.annotations.Nullable;

import java.time.Duration;

/** For implementations: the checks every bound and pause in a lock's settings gets. */
public final class Durations {

    private Durations() {
    }

    /**
     * Checks a positive duration.
     *
     * @param duration the duration
     * @param what     what it is, for the message, such as {@code min backoff}
     * @return {@code duration}
     * @throws IllegalArgumentException naming {@code what} unless it is positive (a null one included)
     */
    public static Duration requirePositive(@Nullable Duration duration, String what) {
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, was " + duration);
        }
        return duration;
    }

    /**
     * Checks the pauses of a blocking acquire ({@link BlockingAcquire}): both positive, the longest not below the
     * first.
     *
     * @param minBackoff the first pause
     * @param maxBackoff the longest pause
     * @throws IllegalArgumentException naming the first that is wrong
     */
    public static void requireBackoff(@Nullable Duration minBackoff, @Nullable Duration maxBackoff) {
        Duration first = requirePositive(minBackoff, "min backoff");
        Duration longest = requirePositive(maxBackoff, "max backoff");
        if (longest.compareTo(first) < 0) {
            throw new IllegalArgumentException("max backoff " + maxBackoff + " is below min backoff " + minBackoff);
        }
    }
}
