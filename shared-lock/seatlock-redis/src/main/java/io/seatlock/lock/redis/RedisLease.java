package io.seatlock.lock.redis;

import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockClosedException;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.spi.GrantedLease;
import io.seatlock.lock.spi.LeaseWatchdog;
import io.seatlock.lock.spi.LockSpec;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.ReleaseOutcome;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.RejectedExecutionException;

/**
 * One grant. No monitor guards it: state changes are atomic, so no user callback and no other object's
 * lock is ever reached while this lease holds one. At most one {@code PEXPIRE} of this lease is in flight
 * at a time, so the local deadline always follows the renewal Redis applied last.
 */
final class RedisLease extends GrantedLease {

    private static final Logger log = LoggerFactory.getLogger(RedisLease.class);

    private enum State { HELD, LOST, RELEASED }

    private final LeaseContext context;
    private final String group;
    private final String lockKey;
    private final long acquiredAtNanos;
    // Plain volatile fields with VarHandles instead of Atomic* objects: a lease is made per acquire, and
    // most are released without ever being renewed, so the renewal permit is created on first use.
    private volatile State state = State.HELD;
    private volatile Semaphore extending;
    private volatile Runnable onLost;
    private volatile boolean lostCallbackRun;
    private volatile long deadlineNanos;
    private volatile LeaseWatchdog watchdog;

    private static final VarHandle STATE;
    private static final VarHandle EXTENDING;
    private static final VarHandle ON_LOST;
    private static final VarHandle LOST_CALLBACK_RUN;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(RedisLease.class, "state", State.class);
            EXTENDING = lookup.findVarHandle(RedisLease.class, "extending", Semaphore.class);
            ON_LOST = lookup.findVarHandle(RedisLease.class, "onLost", Runnable.class);
            LOST_CALLBACK_RUN = lookup.findVarHandle(RedisLease.class, "lostCallbackRun", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    RedisLease(LeaseContext context, LockSpec spec, String group, String lockKey, String owner,
               FencingToken fencingToken, long startNanos) {
        super(spec, owner, fencingToken);
        this.context = context;
        this.group = group;
        this.lockKey = lockKey;
        this.acquiredAtNanos = startNanos;
        this.deadlineNanos = deadlineFrom(startNanos, spec.ttl());
    }

    @Override
    public boolean isValid() {
        return state == State.HELD && System.nanoTime() - deadlineNanos < 0;
    }

    @Override
    public Duration validFor() {
        long left = deadlineNanos - System.nanoTime();
        return state == State.HELD && left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    @Override
    public boolean isLost() {
        return state == State.LOST;
    }

    @Override
    public boolean isKeptAlive() {
        return onLost != null && state == State.HELD;
    }

    @Override
    public boolean renew(Duration ttl) {
        LockSpec.requireValidTtl(ttl);
        context.settings().requireUsable(ttl);
        ttl = Duration.ofMillis(ttl.toMillis()); // what Redis applies
        State now = state;
        if (now == State.RELEASED) {
            throw new IllegalStateException("lease on '" + spec.name() + "' was released; acquire the lock again");
        }
        if (now == State.LOST) {
            return false;
        }
        // One bound for the whole call, waiting for a stuck background renewal included.
        long deadline = context.calls().callDeadline();
        takeExtendPermit(deadline);
        try {
            long start = System.nanoTime();
            if (awaitUninterruptibly(context.commands().extend(lockKey, owner, ttl, context.calls().within(deadline)), deadline)) {
                renewed(start, ttl);
                return true;
            }
        } finally {
            extending().release();
        }
        markLost("a renewal found it taken or expired");
        return false;
    }

    @Override
    public LockLease keepAlive(Runnable callback) {
        Objects.requireNonNull(callback, "onLost callback must not be null");
        State now = state;
        if (now != State.HELD) {
            throw new IllegalStateException("lease on '" + spec.name() + "' is " + now.name().toLowerCase());
        }
        if (!ON_LOST.compareAndSet(this, null, callback)) {
            throw new IllegalStateException("lease on '" + spec.name() + "' is already kept alive");
        }
        try {
            watchdog = LeaseWatchdog.start(new Kept(), spec.ttl(), context.watchdogs());
        } catch (RejectedExecutionException closing) { // the client closes: it releases this lease, nothing renews it
            throw new LockClosedException("the lock client of '" + spec.name() + "' is closed; it is not kept alive");
        }
        if (state == State.LOST) {
            fireLostCallback(); // lost between the check above and the callback's registration
        }
        return this;
    }

    /** What the watchdog keeps: this lease. Renewals are sent without waiting, so the watchdog never blocks. */
    private final class Kept implements LeaseWatchdog.Kept {
        @Override
        public boolean isHeld() {
            return state == State.HELD;
        }

        @Override
        public long deadlineNanos() {
            return deadlineNanos;
        }

        @Override
        public void renewInBackground(long startNanos) {
            if (extending().tryAcquire()) {
                RedisLease.this.renewInBackground(startNanos);
            } // else the previous renewal still waits for Redis; its answer or the give-up time decides
        }

        @Override
        public void giveUp() {
            markLost("could not be renewed before its local deadline");
        }
    }

    private void renewInBackground(long start) {
        CompletableFuture<Boolean> answer;
        try {
            answer = context.commands().extend(lockKey, owner, spec.ttl(), context.calls()::send);
        } catch (RuntimeException e) {
            extending().release();
            context.listener().onRenewalFailed(group);
            return;
        }
        answer.whenComplete((ours, error) -> {
            extending().release();
            if (error != null) {
                context.listener().onRenewalFailed(group);
                log.debug("renewal of '{}' failed; retrying until the local deadline nears", spec.name(), error);
            } else if (ours) {
                renewed(start, spec.ttl());
            } else {
                markLost("a renewal found it taken or expired");
            }
        });
    }

    private void renewed(long start, Duration ttl) {
        if (state == State.HELD) {
            deadlineNanos = deadlineFrom(start, ttl);
            context.listener().onRenewed(group);
        }
    }

    private void markLost(String reason) {
        if (!STATE.compareAndSet(this, State.HELD, State.LOST)) {
            return;
        }
        stopWatchdog();
        context.ended().accept(this);
        log.atWarn().addKeyValue("seatlock.event", "lease-lost").addKeyValue("seatlock.lock.name", spec.name())
                .addKeyValue("seatlock.lock.fencing-token", token.value()).addKeyValue("seatlock.reason", reason)
                .log("Lock '{}' {}; treating it as lost", spec.name(), reason);
        context.listener().onLost(group, heldFor());
        fireLostCallback();
    }

    private void fireLostCallback() {
        Runnable callback = onLost;
        if (callback != null && LOST_CALLBACK_RUN.compareAndSet(this, false, true)) {
            context.callbacks().run(callback, spec.name());
        }
    }

    @Override
    public ReleaseOutcome release() {
        long deadline = context.calls().callDeadline();
        return awaitUninterruptibly(releaseAsync(null, context.calls().within(deadline)), deadline);
    }

    @Override
    public ReleaseOutcome releaseDecided(Duration keepMarkerFor) {
        LockSpec.requireValidMarkerTime(keepMarkerFor);
        long deadline = context.calls().callDeadline();
        return awaitUninterruptibly(releaseAsync(keepMarkerFor, context.calls().within(deadline)), deadline);
    }

    /**
     * Ends the lease at once (it leaves {@code heldLeases} even if Redis is down) and deletes the key by owner, in
     * the background.
     */
    CompletableFuture<ReleaseOutcome> releaseAsync() {
        return releaseAsync(null, context.calls()::send);
    }

    /**
     * @param keepMarkerFor how long to leave the decided marker; null for a plain release
     * @param how           for a caller who waits, or in the background
     */
    private CompletableFuture<ReleaseOutcome> releaseAsync(@Nullable Duration keepMarkerFor, RedisCalls.Sender how) {
        State before = (State) STATE.getAndSet(this, State.RELEASED);
        if (before == State.RELEASED) {
            return CompletableFuture.completedFuture(ReleaseOutcome.ALREADY_RELEASED);
        }
        stopWatchdog();
        context.ended().accept(this);
        CompletableFuture<Long> delete = keepMarkerFor == null ? context.commands().delete(lockKey, owner, how)
                : context.commands().deleteDecided(spec.name(), owner, keepMarkerFor, how);
        return delete.thenApply(deleted -> before == State.LOST ? ReleaseOutcome.LOST : ended(deleted == 1));
    }

    @Override
    public ReleaseOutcome releaseAfter(Duration keepFor) {
        LockSpec.requireValidStandingTime(keepFor);
        if (keepFor == null || keepFor.toMillis() < 1 || state != State.HELD) {
            return release();
        }
        State before = (State) STATE.getAndSet(this, State.RELEASED);
        if (before != State.HELD) {
            return before == State.LOST ? ReleaseOutcome.LOST : ReleaseOutcome.ALREADY_RELEASED;
        }
        stopWatchdog();
        context.ended().accept(this);
        long deadline = context.calls().callDeadline();
        takeExtendPermit(deadline); // a background renewal landing after this one would stretch the lock to its full ttl
        boolean stillOurs;
        try {
            stillOurs = awaitUninterruptibly(context.commands().extend(lockKey, owner, keepFor, context.calls().within(deadline)),
                    deadline);
        } finally {
            extending().release();
        }
        return ended(stillOurs);
    }

    /** What a release that reached Redis found: the lock still ours (released) or gone (lost). */
    private ReleaseOutcome ended(boolean stillOurs) {
        if (stillOurs) {
            context.listener().onReleased(group, heldFor());
            return ReleaseOutcome.RELEASED;
        }
        context.listener().onLost(group, heldFor());
        return ReleaseOutcome.LOST;
    }

    @Override
    public void close() {
        try {
            release();
        } catch (RuntimeException e) {
            // The key expires on its own; the caller's own exception matters more than this one.
            log.warn("could not release lock '{}': {}", spec.name(), e.getMessage());
        }
    }

    /** The one renewal permit, made on first use. */
    private Semaphore extending() {
        Semaphore permit = extending;
        if (permit == null) {
            permit = new Semaphore(1);
            if (!EXTENDING.compareAndSet(this, null, permit)) {
                permit = extending;
            }
        }
        return permit;
    }

    private void takeExtendPermit(long deadline) {
        if (!LeaseWatchdog.takeUninterruptibly(extending(), deadline)) {
            throw new LockUnavailableException("a renewal of '" + spec.name() + "' still waits for Redis after "
                    + context.calls().commandTimeout(), null);
        }
    }

    private <T> T awaitUninterruptibly(CompletableFuture<T> answer, long deadline) {
        return context.calls().awaitUninterruptibly(group, answer, deadline);
    }

    private void stopWatchdog() {
        LeaseWatchdog current = watchdog;
        if (current != null) {
            current.stop();
        }
    }

    private Duration heldFor() {
        return Duration.ofNanos(System.nanoTime() - acquiredAtNanos);
    }

    private long deadlineFrom(long startNanos, Duration ttl) {
        return startNanos + ttl.toNanos() - context.settings().safetyMarginNanos(ttl);
    }

    @Override
    public String toString() {
        return "LockLease[" + spec.name() + ", token " + token + ", " + state.name().toLowerCase() + "]";
    }
}
