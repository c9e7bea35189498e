package io.seatlock.lock.redis;

import io.seatlock.lock.LeaseTooShortException;
import io.seatlock.lock.spi.InstanceId;

import java.time.Duration;

/**
 * How the Redis lock behaves.
 *
 * @param keyPrefix        put before every key, e.g. {@code seatlock:}; the layout is {@link RedisKeys}
 * @param instanceId       readable part of every owner token, the one name of this process (default
 *                         {@code <host>-<pid>})
 * @param clockDriftFactor share of the TTL kept as safety margin for the local validity deadline
 * @param minSafetyMargin  smallest safety margin
 * @param minBackoff       first wait between attempts of a blocking acquire
 * @param maxBackoff       longest wait between attempts of a blocking acquire
 */
public record RedisLockSettings(String keyPrefix, String instanceId, double clockDriftFactor,
                                Duration minSafetyMargin, Duration minBackoff, Duration maxBackoff) {

    /**
     * Checks every setting.
     *
     * @param keyPrefix        put before every key; no braces
     * @param instanceId       readable part of every owner token; not blank
     * @param clockDriftFactor share of the ttl kept as safety margin, in [0, 0.5)
     * @param minSafetyMargin  smallest safety margin, not negative
     * @param minBackoff       first wait of a blocking acquire, positive
     * @param maxBackoff       longest wait of a blocking acquire, not below {@code minBackoff}
     * @throws IllegalArgumentException naming the first bad one
     */
    public RedisLockSettings {
        new RedisKeys(keyPrefix); // checks the prefix
        if (instanceId == null || instanceId.isBlank()) {
            throw new IllegalArgumentException("instance id must not be blank");
        }
        if (clockDriftFactor < 0 || clockDriftFactor >= 0.5) {
            throw new IllegalArgumentException("clock drift factor must be in [0, 0.5), was " + clockDriftFactor);
        }
        requirePositive(minBackoff, "min backoff");
        requirePositive(maxBackoff, "max backoff");
        if (minSafetyMargin == null || minSafetyMargin.isNegative()) {
            throw new IllegalArgumentException("min safety margin must not be negative");
        }
        if (maxBackoff.compareTo(minBackoff) < 0) {
            throw new IllegalArgumentException("max backoff " + maxBackoff + " is below min backoff " + minBackoff);
        }
    }

    /**
     * Drift factor 0.01 and a 1 ms floor: Redis keeps expiry in whole milliseconds, so a key may go up to
     * a millisecond before the client's reckoning. A 1 ms ttl therefore can never be valid; 2 ms can.
     * The instance id is {@code <host>-<pid>}: unique per process even for replicas on one machine.
     *
     * @return the default settings
     */
    public static RedisLockSettings defaults() {
        return new RedisLockSettings("seatlock:", InstanceId.ofThisProcess(), 0.01,
                Duration.ofMillis(1),
                Duration.ofMillis(10), Duration.ofMillis(200));
    }

    /**
     * These settings with another key prefix.
     *
     * @param prefix the new prefix, no braces
     * @return new settings
     */
    public RedisLockSettings withKeyPrefix(String prefix) {
        return new RedisLockSettings(prefix, instanceId, clockDriftFactor, minSafetyMargin, minBackoff, maxBackoff);
    }

    /**
     * These settings with another instance id.
     *
     * @param id the new instance id, not blank
     * @return new settings
     */
    public RedisLockSettings withInstanceId(String id) {
        return new RedisLockSettings(keyPrefix, id, clockDriftFactor, minSafetyMargin, minBackoff, maxBackoff);
    }

    /**
     * The key layout under this prefix.
     *
     * @return the keys
     */
    public RedisKeys keys() {
        return new RedisKeys(keyPrefix);
    }

    /** Refuses a ttl no longer than its safety margin: such a lease could never be valid. */
    void requireUsable(Duration ttl) {
        long margin = safetyMarginNanos(ttl);
        if (ttl.toNanos() <= margin) {
            throw new LeaseTooShortException(ttl, Duration.ofNanos(margin));
        }
    }

    /** The part of a TTL this side does not trust: Redis may expire the key that much earlier. */
    long safetyMarginNanos(Duration ttl) {
        long drift = (long) (ttl.toNanos() * clockDriftFactor);
        return Math.max(drift, minSafetyMargin.toNanos());
    }

    private static void requirePositive(Duration d, String what) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, was " + d);
        }
    }
}
