package io.seatlock.lock.redis;

import io.seatlock.lock.internal.Durations;
import io.seatlock.lock.spi.InstanceId;
import io.seatlock.lock.spi.SafetyMargin;

import java.time.Duration;

/**
 * How the Redis lock behaves: {@link #defaults()}, then a {@code with…} method for each setting to change. Immutable;
 * equal when every setting is.
 */
public final class RedisLockSettings {

    /** A replica on the same network acknowledges within a millisecond or two; this allows for a busy one. */
    private static final Duration DEFAULT_REPLICA_WAIT = Duration.ofMillis(100);

    /**
     * Every setting, checked together; a record for value equality, private so that no caller depends on its order.
     *
     * @param keyPrefix        put before every key; no braces
     * @param instanceId       readable part of every owner token; not blank, not ending in {@code |waited}
     * @param clockDriftFactor share of the ttl kept as safety margin, in [0, 0.5)
     * @param minSafetyMargin  smallest safety margin, not negative
     * @param minBackoff       first wait of a blocking acquire, positive
     * @param maxBackoff       longest wait of a blocking acquire, not below {@code minBackoff}
     * @param replicas         replicas that must acknowledge a grant or renewal, not negative
     * @param replicaWait      how long to wait for them, positive
     */
    private record Values(String keyPrefix, String instanceId, double clockDriftFactor, Duration minSafetyMargin,
                          Duration minBackoff, Duration maxBackoff, int replicas, Duration replicaWait) {
        Values {
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
    }

    private final Values values;

    private RedisLockSettings(Values values) {
        this.values = values;
    }

    /**
     * Key prefix {@code seatlock:}; drift factor 0.01 and a 1 ms floor (Redis keeps expiry in whole milliseconds, so a
     * key may go up to a millisecond before the client's reckoning: a 1 ms ttl can never be valid, 2 ms can); back-off
     * from 10 ms to 200 ms; no replica acknowledgement. The instance id is {@code <host>-<pid>}: unique per process
     * even for replicas on one machine.
     *
     * @return the default settings
     */
    public static RedisLockSettings defaults() {
        return new RedisLockSettings(new Values("seatlock:", InstanceId.ofThisProcess(), 0.01, Duration.ofMillis(1),
                Duration.ofMillis(10), Duration.ofMillis(200), 0, DEFAULT_REPLICA_WAIT));
    }

    /**
     * These settings with another key prefix.
     *
     * @param prefix put before every key, e.g. {@code seatlock:}, no braces; the layout is {@link RedisKeys}
     * @return new settings
     * @throws IllegalArgumentException for a prefix with braces
     */
    public RedisLockSettings withKeyPrefix(String prefix) {
        Values v = values;
        return new RedisLockSettings(new Values(prefix, v.instanceId(), v.clockDriftFactor(), v.minSafetyMargin(),
                v.minBackoff(), v.maxBackoff(), v.replicas(), v.replicaWait()));
    }

    /**
     * These settings with another instance id.
     *
     * @param id readable part of every owner token, the one name of this process; not blank, not ending in
     *           {@code |waited}
     * @return new settings
     * @throws IllegalArgumentException for a blank id or one ending in {@code |waited}
     */
    public RedisLockSettings withInstanceId(String id) {
        Values v = values;
        return new RedisLockSettings(new Values(v.keyPrefix(), id, v.clockDriftFactor(), v.minSafetyMargin(),
                v.minBackoff(), v.maxBackoff(), v.replicas(), v.replicaWait()));
    }

    /**
     * These settings with another local safety margin: the part of each ttl the client does not count on.
     *
     * @param clockDriftFactor share of the ttl, in [0, 0.5)
     * @param minimum          the smallest margin, not negative
     * @return new settings
     * @throws IllegalArgumentException for a factor or minimum out of range
     */
    public RedisLockSettings withSafetyMargin(double clockDriftFactor, Duration minimum) {
        Values v = values;
        return new RedisLockSettings(new Values(v.keyPrefix(), v.instanceId(), clockDriftFactor, minimum,
                v.minBackoff(), v.maxBackoff(), v.replicas(), v.replicaWait()));
    }

    /**
     * These settings with other pauses between a blocking acquire's attempts (a release wakes a waiter sooner).
     *
     * @param first   the first pause, positive
     * @param longest the longest pause, not below {@code first}
     * @return new settings
     * @throws IllegalArgumentException for a pause that is not positive, or a longest below the first
     */
    public RedisLockSettings withBackoff(Duration first, Duration longest) {
        Values v = values;
        return new RedisLockSettings(new Values(v.keyPrefix(), v.instanceId(), v.clockDriftFactor(),
                v.minSafetyMargin(), first, longest, v.replicas(), v.replicaWait()));
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
     * @param wait     how long to wait for them, positive; the whole call still ends within the command timeout
     * @return new settings
     * @throws IllegalArgumentException for a negative count or a wait that is not positive
     */
    public RedisLockSettings withReplicas(int replicas, Duration wait) {
        Values v = values;
        return new RedisLockSettings(new Values(v.keyPrefix(), v.instanceId(), v.clockDriftFactor(),
                v.minSafetyMargin(), v.minBackoff(), v.maxBackoff(), replicas, wait));
    }

    /**
     * What is put before every key.
     *
     * @return the key prefix
     */
    public String keyPrefix() {
        return values.keyPrefix();
    }

    /**
     * This process's name in owner tokens.
     *
     * @return the instance id
     */
    public String instanceId() {
        return values.instanceId();
    }

    /**
     * The share of each ttl kept as local safety margin.
     *
     * @return the clock drift factor
     */
    public double clockDriftFactor() {
        return values.clockDriftFactor();
    }

    /**
     * The smallest local safety margin.
     *
     * @return the minimum margin
     */
    public Duration minSafetyMargin() {
        return values.minSafetyMargin();
    }

    /**
     * The first pause of a blocking acquire.
     *
     * @return the first pause
     */
    public Duration minBackoff() {
        return values.minBackoff();
    }

    /**
     * The longest pause of a blocking acquire.
     *
     * @return the longest pause
     */
    public Duration maxBackoff() {
        return values.maxBackoff();
    }

    /**
     * How many replicas must acknowledge a grant or renewal; 0 counts the master's word alone.
     *
     * @return the replica count
     */
    public int replicas() {
        return values.replicas();
    }

    /**
     * How long a grant or renewal waits for its replicas.
     *
     * @return the replica wait
     */
    public Duration replicaWait() {
        return values.replicaWait();
    }

    /**
     * The key layout under this prefix.
     *
     * @return the keys
     */
    public RedisKeys keys() {
        return new RedisKeys(values.keyPrefix());
    }

    /** The part of a ttl this side does not trust: Redis may expire the key that much earlier. */
    SafetyMargin safetyMargin() {
        return new SafetyMargin(values.clockDriftFactor(), values.minSafetyMargin());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RedisLockSettings settings && values.equals(settings.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "RedisLockSettings" + values.toString().substring("Values".length());
    }
}
