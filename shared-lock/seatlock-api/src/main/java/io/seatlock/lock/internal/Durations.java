package io.seatlock.lock.internal;

import org.jspecify.annotations.Nullable;

import java.time.Duration;

/** The checks every bound and pause in a lock's settings gets, and the capped waits every deadline is made of. */
public final class Durations {

    private static final long LONGEST_WAIT_NANOS = Long.MAX_VALUE / 4;
    private static final Duration LONGEST_WAIT = Duration.ofNanos(LONGEST_WAIT_NANOS);

    private Durations() {
    }

    /**
     * A wait in nanoseconds, at most {@code Long.MAX_VALUE / 4} (about 73 years): a deadline of now plus it, and the
     * difference of that deadline and a later now, never overflow into the past.
     *
     * @param wait a wait, not negative
     * @return it in nanoseconds, capped
     */
    public static long waitNanos(Duration wait) {
        return wait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT_NANOS : wait.toNanos();
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
     * Checks the pauses of a blocking acquire: both positive, the longest not below the first.
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
