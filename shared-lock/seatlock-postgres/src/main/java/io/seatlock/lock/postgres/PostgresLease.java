package io.seatlock.lock.postgres;

import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockClosedException;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.lock.spi.GrantedLease;
import io.seatlock.lock.spi.LeaseWatchdog;
import io.seatlock.lock.spi.LockSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One grant: a lease row whose owner token is this lease's. No monitor guards it: state changes are atomic, so no
 * user callback runs while this lease holds a lock. At most one renewal is in flight at a time, so the local deadline
 * follows the renewal PostgreSQL applied last; the local deadline is reckoned from before each statement was sent.
 */
final class PostgresLease extends GrantedLease {

    private static final Logger log = LoggerFactory.getLogger(PostgresLease.class);

    private enum State { HELD, LOST, RELEASED }

    private final LeaseSupport support;
    private final String group;
    private final long acquiredAtNanos;
    private final AtomicReference<State> state = new AtomicReference<>(State.HELD);
    private final Semaphore extending = new Semaphore(1);
    private final AtomicReference<Runnable> onLost = new AtomicReference<>();
    private final AtomicBoolean lostCallbackRun = new AtomicBoolean();
    private volatile long deadlineNanos;
    private volatile LeaseWatchdog watchdog;

    PostgresLease(LeaseSupport support, LockSpec spec, String group, String owner, FencingToken token, long startNanos) {
        super(spec, owner, token);
        this.support = support;
        this.group = group;
        this.acquiredAtNanos = startNanos;
        this.deadlineNanos = deadlineFrom(startNanos, spec.ttl());
    }

    @Override
    public boolean isValid() {
        return state.get() == State.HELD && System.nanoTime() - deadlineNanos < 0;
    }

    @Override
    public Duration validFor() {
        long left = deadlineNanos - System.nanoTime();
        return state.get() == State.HELD && left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    @Override
    public boolean isLost() {
        return state.get() == State.LOST;
    }

    @Override
    public boolean isKeptAlive() {
        return onLost.get() != null && state.get() == State.HELD;
    }

    @Override
    public boolean renew(Duration ttl) {
        LockSpec.requireValidTtl(ttl);
        support.settings().requireUsable(ttl);
        Duration whole = Duration.ofMillis(ttl.toMillis());
        State now = state.get();
        if (now == State.RELEASED) {
            throw new IllegalStateException("lease on '" + spec.name() + "' was released; acquire the lock again");
        }
        if (now == State.LOST) {
            return false;
        }
        long deadline = support.calls().callDeadline(); // one bound, waiting for a background renewal included
        takeExtendPermit(deadline);
        try {
            long start = System.nanoTime();
            if (support.calls().call(group, deadline, c -> support.statements().extend(c, spec.name(), owner, whole))) {
                renewed(start, whole);
                return true;
            }
        } finally {
            extending.release();
        }
        markLost("a renewal found it taken or expired");
        return false;
    }

    @Override
    public LockLease keepAlive(Runnable callback) {
        Objects.requireNonNull(callback, "onLost callback must not be null");
        State now = state.get();
        if (now != State.HELD) {
            throw new IllegalStateException("lease on '" + spec.name() + "' is " + now.name().toLowerCase());
        }
        if (!onLost.compareAndSet(null, callback)) {
            throw new IllegalStateException("lease on '" + spec.name() + "' is already kept alive");
        }
        try {
            watchdog = LeaseWatchdog.start(new Kept(), spec.ttl(), support.watchdogs());
        } catch (RejectedExecutionException closing) {
            throw new LockClosedException("the lock of '" + spec.name() + "' is closed; it is not kept alive");
        }
        if (state.get() == State.LOST) {
            fireLostCallback(); // lost between the check above and the callback's registration
        }
        return this;
    }

    /** What the watchdog keeps: this lease. */
    private final class Kept implements LeaseWatchdog.Kept {
        @Override
        public boolean isHeld() {
            return state.get() == State.HELD;
        }

        @Override
        public long deadlineNanos() {
            return deadlineNanos;
        }

        @Override
        public void renewInBackground(long startNanos) {
            if (extending.tryAcquire()) {
                PostgresLease.this.renewInBackground(startNanos);
            } // else the previous renewal still waits for PostgreSQL; its answer or the give-up time decides
        }

        @Override
        public void giveUp() {
            markLost("could not be renewed before its local deadline");
        }
    }

    private void renewInBackground(long start) {
        try {
            support.renewals().execute(() -> {
                boolean ours;
                try {
                    ours = support.calls().call(group, c -> support.statements().extend(c, spec.name(), owner, spec.ttl()));
                } catch (LockUnavailableException e) {
                    support.listener().onRenewalFailed(group);
                    log.debug("renewal of '{}' failed; retrying until the local deadline nears", spec.name(), e);
                    return;
                } finally {
                    extending.release();
                }
                if (ours) {
                    renewed(start, spec.ttl());
                } else {
                    markLost("a renewal found it taken or expired");
                }
            });
        } catch (RejectedExecutionException closing) {
            extending.release();
        }
    }

    private void renewed(long start, Duration ttl) {
        if (state.get() == State.HELD) {
            deadlineNanos = deadlineFrom(start, ttl);
            support.listener().onRenewed(group);
        }
    }

    private void markLost(String reason) {
        if (!state.compareAndSet(State.HELD, State.LOST)) {
            return;
        }
        stopWatchdog();
        support.ended().accept(this);
        log.atWarn().addKeyValue("seatlock.event", "lease-lost").addKeyValue("seatlock.lock.name", spec.name())
                .addKeyValue("seatlock.lock.fencing-token", token.value()).addKeyValue("seatlock.reason", reason)
                .log("Lock '{}' {}; treating it as lost", spec.name(), reason);
        support.listener().onLost(group, heldFor());
        fireLostCallback();
    }

    private void fireLostCallback() {
        Runnable callback = onLost.get();
        if (callback != null && lostCallbackRun.compareAndSet(false, true)) {
            support.callbacks().run(callback, spec.name());
        }
    }

    @Override
    public ReleaseOutcome release() {
        State before = end();
        if (before == State.RELEASED) {
            return ReleaseOutcome.ALREADY_RELEASED;
        }
        boolean released = support.calls().call(group, c -> support.statements().release(c, spec.name(), owner));
        return before == State.LOST ? ReleaseOutcome.LOST : ended(released);
    }

    @Override
    public ReleaseOutcome releaseDecided(Duration keepMarkerFor) {
        LockSpec.requireValidMarkerTime(keepMarkerFor);
        State before = end();
        if (before == State.RELEASED) {
            return ReleaseOutcome.ALREADY_RELEASED;
        }
        boolean released = support.calls().call(group,
                c -> support.statements().releaseDecided(c, spec.name(), owner, keepMarkerFor));
        return before == State.LOST ? ReleaseOutcome.LOST : ended(released);
    }

    @Override
    public ReleaseOutcome releaseAfter(Duration keepFor) {
        LockSpec.requireValidStandingTime(keepFor);
        if (keepFor == null || keepFor.toMillis() < 1 || state.get() != State.HELD) {
            return release();
        }
        State before = end();
        if (before != State.HELD) {
            return before == State.LOST ? ReleaseOutcome.LOST : ReleaseOutcome.ALREADY_RELEASED;
        }
        long deadline = support.calls().callDeadline();
        takeExtendPermit(deadline); // a background renewal landing after this would stretch the lock to its full ttl
        try {
            Duration whole = Duration.ofMillis(keepFor.toMillis());
            return ended(support.calls().call(group, deadline,
                    c -> support.statements().extend(c, spec.name(), owner, whole)));
        } finally {
            extending.release();
        }
    }

    /** Ends the lease locally at once (it leaves the held ones even if PostgreSQL is down); the previous state. */
    private State end() {
        State before = state.getAndSet(State.RELEASED);
        if (before != State.RELEASED) {
            stopWatchdog();
            support.ended().accept(this);
        }
        return before;
    }

    /** What a release that reached PostgreSQL found: the lease still ours (released) or gone (lost). */
    private ReleaseOutcome ended(boolean stillOurs) {
        if (stillOurs) {
            support.listener().onReleased(group, heldFor());
            return ReleaseOutcome.RELEASED;
        }
        support.listener().onLost(group, heldFor());
        return ReleaseOutcome.LOST;
    }

    @Override
    public void close() {
        try {
            release();
        } catch (RuntimeException e) {
            // The row expires on its own; the caller's own exception matters more than this one.
            log.warn("could not release lock '{}': {}", spec.name(), e.getMessage());
        }
    }

    private void takeExtendPermit(long deadline) {
        if (!LeaseWatchdog.takeUninterruptibly(extending, deadline)) {
            throw new LockUnavailableException("a renewal of '" + spec.name() + "' still waits for PostgreSQL after "
                    + support.calls().callTimeout(), null);
        }
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
        return startNanos + ttl.toNanos() - support.settings().safetyMarginNanos(ttl);
    }

    @Override
    public String toString() {
        return "LockLease[" + spec.name() + ", token " + token + ", " + state.get().name().toLowerCase() + "]";
    }
}
