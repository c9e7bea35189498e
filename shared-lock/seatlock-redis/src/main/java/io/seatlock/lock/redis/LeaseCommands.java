package io.seatlock.lock.redis;

import io.seatlock.lock.redis.spi.RedisCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongPredicate;
import java.util.List;

/**
 * The owner-checked scripts a lease sends for itself: renew, release, release as decided, take back; and the
 * replicas' acknowledgement that grants and renewals wait for when the settings ask for one.
 */
final class LeaseCommands {

    private static final Logger log = LoggerFactory.getLogger(LeaseCommands.class);

    private final RedisCalls calls;
    private final RedisLockSettings settings;
    private final RedisKeys keys;

    LeaseCommands(RedisCalls calls, RedisLockSettings settings) {
        this.calls = calls;
        this.settings = settings;
        this.keys = settings.keys();
    }

    /**
     * Compare-and-PEXPIRE; completes with true if the lock was still this owner's and now has {@code ttl}, with
     * an error if the replicas the settings ask for did not acknowledge the new expiry in time.
     */
    CompletableFuture<Boolean> extend(String lockKey, String owner, Duration ttl, RedisCalls.Sender how) {
        RedisCommand.Script extend = LockScripts.EXTEND.command(List.of(lockKey), List.of(owner,
                Long.toString(ttl.toMillis())));
        return acknowledged(extend, extended -> extended == 1, how).thenApply(extended -> extended == 1);
    }

    /**
     * {@code write}, sent by {@code how}, followed by {@code WAIT} on the same connection when replicas must
     * acknowledge: a write that {@code wrote} says changed something and that fewer replicas than asked for
     * have completes with {@link ReplicasDidNotAcknowledge}. WAIT covers every earlier write of the connection,
     * this one included.
     */
    CompletableFuture<Long> acknowledged(RedisCommand.Script write, LongPredicate wrote, RedisCalls.Sender how) {
        int replicas = settings.replicas();
        if (replicas == 0) {
            return how.send(write);
        }
        long replicaWaitMillis = Math.max(1, settings.replicaWait().toMillis());
        return how.send(new RedisCommand.ReplicatedScript(write, replicas, replicaWaitMillis)).thenApply(written -> {
            if (wrote.test(written.value()) && written.acknowledged() < replicas) {
                throw new ReplicasDidNotAcknowledge(written.acknowledged(), replicas, replicaWaitMillis);
            }
            return written.value();
        });
    }

    /** A grant or renewal that fewer replicas had than the settings ask for, within their wait. */
    static final class ReplicasDidNotAcknowledge extends RuntimeException {
        ReplicasDidNotAcknowledge(long acknowledged, int asked, long waitMillis) {
            super(acknowledged + " of " + asked + " replica(s) acknowledged the write within " + waitMillis
                    + " ms: not counted (a failover could lose it)", null, false, false);
        }
    }

    /** Sets the decided marker, then compare-and-deletes; completes with 1 if the lock was ours and is gone. */
    CompletableFuture<Long> deleteDecided(String name, String owner, Duration keepMarkerFor, RedisCalls.Sender how) {
        return how.send(LockScripts.RELEASE_DECIDED.command(List.of(keys.lock(name), keys.decided(name)),
                List.of(owner, Long.toString(keepMarkerFor.toMillis()))));
    }

    /** Compare-and-delete; completes with 1 if the key was this owner's and is gone, else 0. */
    CompletableFuture<Long> delete(String lockKey, String owner, RedisCalls.Sender how) {
        return how.send(release(lockKey, owner));
    }

    /** Best effort, never waits and never opens a connection: a grant nobody waits for is deleted by owner. */
    void takeBack(String lockKey, String owner) {
        CompletableFuture<Long> deleted = calls.sendIfConnected(release(lockKey, owner));
        if (deleted != null) {
            deleted.whenComplete((done, error) -> {
                if (error != null) {
                    log.debug("could not take back a grant of {}; it expires on its own", lockKey, error);
                }
            });
        }
    }

    private static RedisCommand.Script release(String lockKey, String owner) {
        return LockScripts.RELEASE.command(List.of(lockKey), List.of(owner));
    }
}
