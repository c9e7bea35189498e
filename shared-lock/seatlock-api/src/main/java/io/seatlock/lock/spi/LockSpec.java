package io.seatlock.lock.spi;

import io.seatlock.lock.internal.Durations;
import io.seatlock.lock.OverlapImpact;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;

/**
 * For implementations of {@link io.seatlock.lock.DistributedLock}: a validated request for a lock, its name,
 * its time to live and what breaks on overlap.
 *
 * @param name   1 to {@value #MAX_NAME_LENGTH} characters, no braces (they are the Redis Cluster hash
 *               tag) and no control characters
 * @param ttl    how long the store keeps the lease if nobody renews or releases it
 * @param impact what breaks if two holders overlap
 */
public record LockSpec(String name, Duration ttl, OverlapImpact impact) {

    /** The longest lock name. */
    public static final int MAX_NAME_LENGTH = 200;
    /**
     * The longest ttl, 30 days: room for a ShedLock {@code lockAtMostFor} of days (a weekly job's), which is granted
     * as one lease and never renewed; longer work renews a shorter lease.
     */
    public static final Duration MAX_TTL = Duration.ofDays(30);

    /**
     * Validates every part.
     *
     * @param name   the lock's name
     * @param ttl    its time to live
     * @param impact what breaks on overlap
     * @throws IllegalArgumentException for a bad name or ttl
     * @throws NullPointerException     for a missing impact
     */
    public LockSpec {
        name = requireValidName(name);
        ttl = requireValidTtl(ttl);
        Objects.requireNonNull(impact, "overlap impact must be declared (WASTED_WORK or BROKEN_PROMISE)");
    }

    /**
     * Checks a lock name.
     * @param name the name
     * @return the name
     * @throws IllegalArgumentException if it is blank, too long, or has braces or control characters
     */
    public static String requireValidName(@Nullable String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("lock name must not be blank");
        }
        if (name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(
                    "lock name is " + name.length() + " characters; at most " + MAX_NAME_LENGTH + " allowed");
        }
        refuseBracesAndControls(name, "lock name must not contain braces or control characters");
        return name;
    }

    /**
     * Checks the start of lock names, as status queries take it ({@link io.seatlock.lock.DistributedLock#heldNames}).
     * Every other character is taken literally, those a store's patterns read as wildcards included.
     *
     * @param namePrefix the start of the names; may be empty
     * @return the prefix
     * @throws IllegalArgumentException if it is null or has braces or control characters, which no name has
     */
    public static String requireValidNamePrefix(@Nullable String namePrefix) {
        if (namePrefix == null) {
            throw new IllegalArgumentException("name prefix must not be null");
        }
        refuseBracesAndControls(namePrefix,
                "name prefix must not contain braces or control characters (no lock name has them)");
        return namePrefix;
    }

    /** Braces are the Redis Cluster hash tag around a name in its keys. */
    private static void refuseBracesAndControls(String text, String rule) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{' || c == '}' || Character.isISOControl(c)) {
                throw new IllegalArgumentException(rule + ": '" + text.replaceAll("\\p{Cntrl}", "?") + "'");
            }
        }
    }

    /**
     * Checks how long a blocking acquire may wait, and gives it in nanoseconds for a deadline on {@link System#nanoTime()}.
     * A wait too long for that ({@code ChronoUnit.FOREVER.getDuration()}, say) is about 73 years: for ever, in effect.
     *
     * @param maxWait how long to wait at most, not negative
     * @return it in nanoseconds, at most {@code Long.MAX_VALUE / 4}
     * @throws IllegalArgumentException if it is missing or negative
     */
    public static long requireValidWait(@Nullable Duration maxWait) {
        if (maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait must not be negative, was " + maxWait);
        }
        return waitNanos(maxWait);
    }

    /**
     * A wait in nanoseconds, at most {@code Long.MAX_VALUE / 4} (about 73 years): a deadline of now plus it, and the
     * difference of that deadline and a later now, never overflow into the past.
     *
     * @param wait a wait, not negative
     * @return it in nanoseconds, capped
     */
    public static long waitNanos(Duration wait) {
        return Durations.waitNanos(wait);
    }

    /**
     * Checks a ttl.
     * @param ttl the ttl
     * @return the ttl
     * @throws IllegalArgumentException if it is not positive, under 1 ms or over {@link #MAX_TTL}
     */
    public static Duration requireValidTtl(@Nullable Duration ttl) {
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("lock ttl must be positive, was " + ttl);
        }
        if (ttl.toMillis() < 1) {
            throw new IllegalArgumentException("lock ttl must be at least 1 ms, was " + ttl);
        }
        requireAtMostMaxTtl(ttl, "lock ttl", "; renew a shorter lease instead");
        return ttl;
    }

    /**
     * Checks how long a lease's decided marker stays ({@link io.seatlock.lock.LockLease#releaseDecided}).
     *
     * @param keepMarkerFor how long
     * @return it
     * @throws IllegalArgumentException if it is missing, under 1 ms or over {@link #MAX_TTL}
     */
    public static Duration requireValidMarkerTime(@Nullable Duration keepMarkerFor) {
        if (keepMarkerFor == null || keepMarkerFor.isNegative() || keepMarkerFor.toMillis() < 1) {
            throw new IllegalArgumentException("the decided marker must be kept at least 1 ms, was " + keepMarkerFor);
        }
        requireAtMostMaxTtl(keepMarkerFor, "the decided marker's time", "");
        return keepMarkerFor;
    }

    /**
     * Checks how long a lock may stand after its lease ends ({@link io.seatlock.lock.LockLease#releaseAfter}): no
     * longer than a ttl may be. Missing, zero or negative is fine: the lock is released at once.
     *
     * @param keepFor how long
     * @return it
     * @throws IllegalArgumentException if it is over {@link #MAX_TTL}
     */
    public static @Nullable Duration requireValidStandingTime(@Nullable Duration keepFor) {
        if (keepFor != null) {
            requireAtMostMaxTtl(keepFor, "the time a lock stands after its lease", "");
        }
        return keepFor;
    }

    private static void requireAtMostMaxTtl(Duration time, String what, String advice) {
        if (time.compareTo(MAX_TTL) > 0) {
            throw new IllegalArgumentException(what + " " + time + " exceeds the maximum of " + MAX_TTL.toDays() + " days"
                    + advice);
        }
    }
}
