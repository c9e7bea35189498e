package io.seatlock.lock.redis;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** The owner-checked scripts a lease sends for itself: renew, release, release as decided, take back. */
final class LeaseCommands {

    private static final Logger log = LoggerFactory.getLogger(LeaseCommands.class);

    private final RedisCalls calls;

    LeaseCommands(RedisCalls calls) {
        this.calls = calls;
    }

    /** Compare-and-PEXPIRE; completes with true if the lock was still this owner's and now has {@code ttl}. */
    CompletableFuture<Boolean> extend(String lockKey, String owner, Duration ttl) {
        return calls.send(r -> LockScripts.EXTEND.run(r, new String[] {lockKey}, owner, Long.toString(ttl.toMillis())))
                .thenApply(extended -> extended == 1);
    }

    /** Sets the decided marker, then compare-and-deletes; completes with 1 if the lock was ours and is gone. */
    CompletableFuture<Long> deleteDecided(String lockKey, String decidedKey, String owner, Duration keepMarkerFor) {
        return calls.send(r -> LockScripts.RELEASE_DECIDED.run(r, new String[] {lockKey, decidedKey}, owner,
                Long.toString(keepMarkerFor.toMillis())));
    }

    /** Compare-and-delete; completes with 1 if the key was this owner's and is gone, else 0. */
    CompletableFuture<Long> delete(String lockKey, String owner) {
        return calls.send(r -> LockScripts.RELEASE.run(r, new String[] {lockKey}, owner));
    }

    /** Best effort, never waits and never opens a connection: a grant nobody waits for is deleted by owner. */
    void takeBack(String lockKey, String owner) {
        RedisClusterAsyncCommands<String, String> commands = calls.connectedOrNull();
        if (commands == null) {
            return;
        }
        LockScripts.RELEASE.run(commands, new String[] {lockKey}, owner).whenComplete((deleted, error) -> {
            if (error != null) {
                log.debug("could not take back a grant of {}; it expires on its own", lockKey, error);
            }
        });
    }
}
