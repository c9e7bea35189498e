package io.seatlock.lock.spi;

import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockClosedException;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.ReleaseOutcome;
import org.jspecify.annotations.Nullable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * For implementations over a store reached by network calls: the lease's state machine, so that every store's lease
 * behaves alike. Held, then released or lost, once; the local deadline is the ttl less the safety margin, reckoned
 * from when the grant or renewal was sent; at most one renewal is in flight, so the deadline follows the renewal the
 * store applied last; {@link #keepAlive} follows {@link LeaseWatchdog}'s schedule; the lost-lease callback runs once,
 * on a callback thread. No monitor guards it: state changes are atomic, so no user callback and no other object's
 * lock is reached while a lease holds one. An implementation says how its store renews and deletes a lease.
 */
public abstract class StoreLease extends GrantedLease {

    private static final System.Logger LOG = System.getLogger(StoreLease.class.getName());

    private enum State { HELD, LOST, RELEASED }

    private final LeaseServices services;
    /** The lock's listener group of the lease's name. */
    protected final String group;
    private final long acquiredAtNanos;
    // Plain volatile fields with VarHandles instead of Atomic* objects: a lease is made per acquire, and most are
    // released without ever being renewed, so the renewal permit is created on first use.
    private volatile State state = State.HELD;
    private volatile @Nullable Semaphore extending;
    private volatile @Nullable Runnable onLost;
    private volatile boolean lostCallbackRun;
    private volatile long deadlineNanos;
    private volatile @Nullable LeaseWatchdog watchdog;

    private static final VarHandle STATE;
    private static final VarHandle EXTENDING;
    private static final VarHandle ON_LOST;
    private static final VarHandle LOST_CALLBACK_RUN;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(StoreLease.class, "state", State.class);
            EXTENDING = lookup.findVarHandle(StoreLease.class, "extending", Semaphore.class);
            ON_LOST = lookup.findVarHandle(StoreLease.class, "onLost", Runnable.class);
            LOST_CALLBACK_RUN = lookup.findVarHandle(StoreLease.class, "lostCallbackRun", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A lease the store granted.
     *
     * @param services   what the lock hands its leases
     * @param spec       the checked request, its ttl in what the store keeps (whole milliseconds, say)
     * @param group      the listener group of its name
     * @param owner      the owner token the store keeps
     * @param token      the grant's fencing token
     * @param startNanos when the grant was sent, on {@link System#nanoTime()}
     */
    protected StoreLease(LeaseServices services, LockSpec spec, String group, String owner, FencingToken token,
                         long startNanos) {
        super(spec, owner, token);
        this.services = Objects.requireNonNull(services, "services");
        this.group = Objects.requireNonNull(group, "group");
        this.acquiredAtNanos = startNanos;
        this.deadlineNanos = deadlineFrom(startNanos, spec().ttl());
    }

    /**
     * Sets the lease's expiry in the store to {@code ttl} from now if the store still has it under this owner token,
     * waiting for the answer.
     *
     * @param ttl      the new ttl, in whole milliseconds
     * @param deadline when to give up, on {@link System#nanoTime()}
     * @return whether the store still had it
     * @throws LockUnavailableException if the store did not answer by {@code deadline}
     */
    protected abstract boolean extend(Duration ttl, long deadline);

    /**
     * Starts {@link #extend} with the lease's own ttl without waiting, for the keep-alive schedule; it may throw if
     * it cannot even start (the lock closes).
     *
     * @return whether the store still had it, or the call's failure
     */
    protected abstract CompletableFuture<Boolean> extendInBackground();

    /**
     * Deletes the lease from the store if it still has it under this owner token, waiting for the answer.
     *
     * @param keepMarkerFor how long to leave the decided marker in its place; null for a plain release
     * @param deadline      when to give up, on {@link System#nanoTime()}
     * @return whether the store still had it
     * @throws LockUnavailableException if the store did not answer by {@code deadline}
     */
    protected abstract boolean delete(@Nullable Duration keepMarkerFor, long deadline);

    /**
     * Logs that the lease counts as lost, with its name, fencing token and the reason, for operators (once a lease).
     *
     * @param reason why, such as "a renewal found it taken or expired"
     */
    protected abstract void logLost(String reason);

    @Override
    public final boolean isValid() {
        return state == State.HELD && System.nanoTime() - deadlineNanos < 0;
    }

    @Override
    public final Duration validFor() {
        long left = deadlineNanos - System.nanoTime();
        return state == State.HELD && left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    @Override
    public final boolean isLost() {
        return state == State.LOST;
    }

    @Override
    public final boolean isKeptAlive() {
        return onLost != null && state == State.HELD;
    }

    @Override
    public final boolean renew(Duration ttl) {
        LockSpec.requireValidTtl(ttl);
        services.margin.requireUsable(ttl);
        Duration whole = Duration.ofMillis(ttl.toMillis()); // what the store applies
        State now = state;
        if (now == State.RELEASED) {
            throw new IllegalStateException("lease on '" + spec().name() + "' was released; acquire the lock again");
        }
        if (now == State.LOST) {
            return false;
        }
        long deadline = services.calls.callDeadline(); // one bound, waiting for a background renewal included
        takeExtendPermit(deadline);
        try {
            long start = System.nanoTime();
            if (extend(whole, deadline)) {
                renewed(start, whole);
                return true;
            }
        } finally {
            extending().release();
        }
        markLost("a renewal found it taken or expired");
        return false;
    }

    @Override
    public final LockLease keepAlive(Runnable callback) {
        Objects.requireNonNull(callback, "onLost callback must not be null");
        State now = state;
        if (now != State.HELD) {
            throw new IllegalStateException("lease on '" + spec().name() + "' is " + now.name().toLowerCase());
        }
        if (!ON_LOST.compareAndSet(this, null, callback)) {
            throw new IllegalStateException("lease on '" + spec().name() + "' is already kept alive");
        }
        try {
            watchdog = LeaseWatchdog.start(new Kept(), spec().ttl(), services.watchdogs);
        } catch (RejectedExecutionException closing) { // the lock closes: it releases this lease, nothing renews it
            onLost = null; // not kept alive, and not to be told of a loss
            throw new LockClosedException("the lock of '" + spec().name() + "' is closed; it is not kept alive");
        }
        if (state == State.LOST) {
            fireLostCallback(); // lost between the check above and the callback's registration
        }
        return this;
    }

    /** What the watchdog keeps: this lease. Renewals are started without waiting, so the watchdog never blocks. */
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
                StoreLease.this.renewInBackground(startNanos);
            } // else the previous renewal still waits for the store; its answer or the give-up time decides
        }

        @Override
        public void giveUp() {
            markLost("could not be renewed before its local deadline");
        }
    }

    private void renewInBackground(long start) {
        CompletableFuture<Boolean> answer;
        try {
            answer = extendInBackground();
        } catch (RuntimeException e) {
            extending().release();
            services.listener.onRenewalFailed(group);
            return;
        }
        answer.whenComplete((ours, error) -> {
            extending().release();
            if (error != null) {
                services.listener.onRenewalFailed(group);
                LOG.log(System.Logger.Level.DEBUG, () -> "renewal of '" + spec().name()
                        + "' failed; retrying until the local deadline nears: " + error);
            } else if (ours) {
                renewed(start, spec().ttl());
            } else {
                markLost("a renewal found it taken or expired");
            }
        });
    }

    private void renewed(long start, Duration ttl) {
        if (state == State.HELD) {
            deadlineNanos = deadlineFrom(start, ttl);
            services.listener.onRenewed(group);
        }
    }

    private void markLost(String reason) {
        if (!STATE.compareAndSet(this, State.HELD, State.LOST)) {
            return;
        }
        stopWatchdog();
        services.ended.accept(this);
        logLost(reason);
        services.listener.onLost(group, impact(), heldFor());
        fireLostCallback();
    }

    private void fireLostCallback() {
        Runnable callback = onLost;
        if (callback != null && LOST_CALLBACK_RUN.compareAndSet(this, false, true)) {
            services.callbacks.run(callback, spec().name());
        }
    }

    @Override
    public final ReleaseOutcome release() {
        return release(null);
    }

    @Override
    public final ReleaseOutcome releaseDecided(Duration keepMarkerFor) {
        return release(LockSpec.requireValidMarkerTime(keepMarkerFor));
    }

    private ReleaseOutcome release(@Nullable Duration keepMarkerFor) {
        State before = end();
        if (before == State.RELEASED) {
            return ReleaseOutcome.ALREADY_RELEASED;
        }
        boolean deleted = delete(keepMarkerFor, services.calls.callDeadline());
        return before == State.LOST ? ReleaseOutcome.LOST : ended(deleted);
    }

    /**
     * Ends the lease at once, as {@link #release()} does, and deletes it from the store without waiting, for a lock
     * that closes and releases every lease it holds together.
     *
     * @param delete starts the owner-checked delete: whether the store still had it
     * @return what the release found
     */
    protected final CompletableFuture<ReleaseOutcome> releaseInBackground(Supplier<CompletableFuture<Boolean>> delete) {
        State before = end();
        if (before == State.RELEASED) {
            return CompletableFuture.completedFuture(ReleaseOutcome.ALREADY_RELEASED);
        }
        return delete.get().thenApply(deleted -> before == State.LOST ? ReleaseOutcome.LOST : ended(deleted));
    }

    @Override
    public final ReleaseOutcome releaseAfter(Duration keepFor) {
        LockSpec.requireValidStandingTime(keepFor);
        if (keepFor == null || keepFor.toMillis() < 1 || state != State.HELD) {
            return release();
        }
        State before = end();
        if (before != State.HELD) {
            return before == State.LOST ? ReleaseOutcome.LOST : ReleaseOutcome.ALREADY_RELEASED;
        }
        long deadline = services.calls.callDeadline();
        takeExtendPermit(deadline); // a background renewal landing after this would stretch the lock to its full ttl
        try {
            return ended(extend(Duration.ofMillis(keepFor.toMillis()), deadline));
        } finally {
            extending().release();
        }
    }

    /** Ends the lease here at once (it leaves the held ones even if the store is down); the state it had. */
    private State end() {
        State before = (State) STATE.getAndSet(this, State.RELEASED);
        if (before != State.RELEASED) {
            stopWatchdog();
            services.ended.accept(this);
        }
        return before;
    }

    /** What a release that reached the store found: the lease still ours (released) or gone (lost). */
    private ReleaseOutcome ended(boolean stillOurs) {
        if (stillOurs) {
            services.listener.onReleased(group, heldFor());
            return ReleaseOutcome.RELEASED;
        }
        services.listener.onLost(group, impact(), heldFor());
        return ReleaseOutcome.LOST;
    }

    @Override
    public final void close() {
        try {
            release();
        } catch (RuntimeException e) {
            // The store expires it on its own; the caller's own exception matters more than this one.
            LOG.log(System.Logger.Level.WARNING, "could not release lock '" + spec().name() + "': " + e.getMessage());
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
            throw new LockUnavailableException("a renewal of '" + spec().name() + "' still waits for "
                    + services.store + " after " + services.calls.callTimeout(), null);
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
        return startNanos + ttl.toNanos() - services.margin.nanos(ttl);
    }

    @Override
    public final String toString() {
        return "LockLease[" + spec().name() + ", token " + fencingToken() + ", " + state.name().toLowerCase() + "]";
    }
}
