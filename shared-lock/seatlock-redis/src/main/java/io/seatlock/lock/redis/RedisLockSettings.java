package io.seatlock.lock.redis;

import io.seatlock.lock.internal.Durations;
import io.seatlock.lock.spi.InstanceId;
import io.seatlock.lock.spi.LeaseTiming;

import java.time.Duration;
import java.util.Objects;

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
     * @param timing           the safety margin and the back-off
     * @param replicas         replicas that must acknowledge a grant or renewal, not negative
     * @param replicaWait      how long to wait for them, positive
     */
    private record Values(String keyPrefix, String instanceId, LeaseTiming timing, int replicas, Duration replicaWait) {
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
            Objects.requireNonNull(timing, "timing");
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
     * Key prefix {@code seatlock:}; {@link LeaseTiming#defaults()}; no replica acknowledgement. The instance id is {@code <host>-<pid>}: unique per process
     * even for replicas on one machine.
     *
     * @return the default settings
     */
    public static RedisLockSettings defaults() {
        return new RedisLockSettings(new Values("seatlock:", InstanceId.ofThisProcess(), LeaseTiming.defaults(), 0,
                DEFAULT_REPLICA_WAIT));
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
        return new RedisLockSettings(new Values(prefix, v.instanceId(), v.timing(), v.replicas(), v.replicaWait()));
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
        return new RedisLockSettings(new Values(v.keyPrefix(), id, v.timing(), v.replicas(), v.replicaWait()));
    }

    /**
     * These settings with another safety margin and back-off.
     *
     * @param timing the timing, e.g. {@code LeaseTiming.defaults().withBackoff(first, longest)}
     * @return new settings
     */
    public RedisLockSettings withTiming(LeaseTiming timing) {
        Values v = values;
        return new RedisLockSettings(new Values(v.keyPrefix(), v.instanceId(), timing, v.replicas(), v.replicaWait()));
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
        return new RedisLockSettings(new Values(v.keyPrefix(), v.instanceId(), v.timing(), replicas, wait));
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
     * The safety margin and the back-off.
     *
     * @return the timing
     */
    public LeaseTiming timing() {
        return values.timing();
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
