package io.seatlock.lock.redis;

import io.seatlock.lock.internal.Durations;
import io.seatlock.lock.spi.InstanceId;
import io.seatlock.lock.spi.SafetyMargin;

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
 * @param replicas         how many replicas must have a grant or renewal before it counts (Redis {@code WAIT});
 *                         0, the default, counts the master's word alone
 * @param replicaWait      how long a grant or renewal waits for those replicas; the whole call still ends within
 *                         the command timeout
 */
public record RedisLockSettings(String keyPrefix, String instanceId, double clockDriftFactor,
                                Duration minSafetyMargin, Duration minBackoff, Duration maxBackoff,
                                int replicas, Duration replicaWait) {

    /** A replica on the same network acknowledges within a millisecond or two; this allows for a busy one. */
    private static final Duration DEFAULT_REPLICA_WAIT = Duration.ofMillis(100);

    /**
     * Checks every setting.
     *
     * @param keyPrefix        put before every key; no braces
     * @param instanceId       readable part of every owner token; not blank, not ending in {@code |waited}
     * @param clockDriftFactor share of the ttl kept as safety margin, in [0, 0.5)
     * @param minSafetyMargin  smallest safety margin, not negative
     * @param minBackoff       first wait of a blocking acquire, positive
     * @param maxBackoff       longest wait of a blocking acquire, not below {@code minBackoff}
     * @param replicas         replicas that must acknowledge a grant or renewal, not negative
     * @param replicaWait      how long to wait for them, positive
     * @throws IllegalArgumentException naming the first bad one
     */
    public RedisLockSettings {
        new RedisKeys(keyPrefix); // checks the prefix
        if (instanceId == null || instanceId.isBlank()) {
            throw new IllegalArgumentException("instance id must not be blank");
        }
        if (instanceId.endsWith(OwnerTokens.WAITED)) {
            // an owner token would then look marked already: its release would announce nothing to a waiter
            throw new IllegalArgumentException("instance id must not end in \"" + OwnerTokens.WAITED
                    + "\", the mark a waiter adds to a held lock's owner token");
        }
        new SafetyMargin(clockDriftFactor, minSafetyMargin); // checks both
        Durations.requireBackoff(minBackoff, maxBackoff);
        if (replicas < 0) {
            throw new IllegalArgumentException("replicas must not be negative, was " + replicas);
        }
        Durations.requirePositive(replicaWait, "replica wait");
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
                Duration.ofMillis(10), Duration.ofMillis(200), 0, DEFAULT_REPLICA_WAIT);
    }

    /**
     * These settings with another key prefix.
     *
     * @param prefix the new prefix, no braces
     * @return new settings
     */
    public RedisLockSettings withKeyPrefix(String prefix) {
        return new RedisLockSettings(prefix, instanceId, clockDriftFactor, minSafetyMargin, minBackoff, maxBackoff,
                replicas, replicaWait);
    }

    /**
     * These settings with another instance id.
     *
     * @param id the new instance id, not blank, not ending in {@code |waited}
     * @return new settings
     */
    public RedisLockSettings withInstanceId(String id) {
        return new RedisLockSettings(keyPrefix, id, clockDriftFactor, minSafetyMargin, minBackoff, maxBackoff,
                replicas, replicaWait);
    }

    /**
     * These settings with grants and renewals counted only once {@code replicas} replicas have them (Redis
     * {@code WAIT}), so that a failover promoting one of them keeps every grant the client was told of. The
     * cost: one more command per grant and renewal, a wait for the slowest of those replicas, and, while they
     * lag, every call on the client's connection queues behind the wait (at most {@code wait} each). A grant
     * the replicas did not acknowledge in time is taken back and reported as {@link
     * io.seatlock.lock.LockUnavailableException}; such a renewal counts as failed. Not on Redis Cluster.
     *
     * @param replicas how many replicas must acknowledge, not negative (0 turns it off)
     * @param wait     how long to wait for them, positive
     * @return new settings
     */
    public RedisLockSettings withReplicas(int replicas, Duration wait) {
        return new RedisLockSettings(keyPrefix, instanceId, clockDriftFactor, minSafetyMargin, minBackoff, maxBackoff,
                replicas, wait);
    }

    /**
     * The key layout under this prefix.
     *
     * @return the keys
     */
    public RedisKeys keys() {
        return new RedisKeys(keyPrefix);
    }

    /** The part of a ttl this side does not trust: Redis may expire the key that much earlier. */
    SafetyMargin safetyMargin() {
        return new SafetyMargin(clockDriftFactor, minSafetyMargin);
    }
}
