package io.seatlock.lock.redis;

import io.seatlock.lock.FencingToken;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.lock.spi.LockSpec;
import io.seatlock.lock.spi.StoreLease;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One grant: the lock key holding this lease's owner token. The state machine is {@link StoreLease}'s; here, how Redis
 * renews ({@code PEXPIRE} by owner, sent without waiting by the watchdog) and deletes it (compare-and-delete).
 */
final class RedisLease extends StoreLease {

    private static final Logger log = LoggerFactory.getLogger(RedisLease.class);

    private final LeaseContext context;
    private final String lockKey;

    RedisLease(LeaseContext context, LockSpec spec, String group, String lockKey, String owner,
               FencingToken fencingToken, long startNanos) {
        super(context.services(), spec, group, owner, fencingToken, startNanos);
        this.context = context;
        this.lockKey = lockKey;
    }

    @Override
    protected boolean extend(Duration ttl, long deadline) {
        return context.calls().awaitUninterruptibly(group,
                context.commands().extend(lockKey, ownerToken(), ttl, context.calls().within(deadline)), deadline);
    }

    @Override
    protected CompletableFuture<Boolean> extendInBackground() {
        return context.commands().extend(lockKey, ownerToken(), spec().ttl(), context.calls()::send);
    }

    @Override
    protected boolean delete(@Nullable Duration keepMarkerFor, long deadline) {
        return context.calls().awaitUninterruptibly(group, delete(keepMarkerFor, context.calls().within(deadline)),
                deadline) == 1;
    }

    private CompletableFuture<Long> delete(@Nullable Duration keepMarkerFor, RedisCalls.Sender how) {
        return keepMarkerFor == null ? context.commands().delete(lockKey, ownerToken(), how)
                : context.commands().deleteDecided(spec().name(), ownerToken(), keepMarkerFor, how);
    }

    /** Ends the lease at once (it leaves the held ones even if Redis is down) and deletes the key in the background. */
    CompletableFuture<ReleaseOutcome> releaseAsync() {
        return releaseInBackground(() -> delete(null, context.calls()::send).thenApply(deleted -> deleted == 1));
    }

    @Override
    protected void logLost(String reason) {
        log.atWarn().addKeyValue("seatlock.event", "lease-lost").addKeyValue("seatlock.lock.name", spec().name())
                .addKeyValue("seatlock.lock.fencing-token", fencingToken().value()).addKeyValue("seatlock.reason", reason)
                .log("Lock '{}' {}; treating it as lost", spec().name(), reason);
    }
}
