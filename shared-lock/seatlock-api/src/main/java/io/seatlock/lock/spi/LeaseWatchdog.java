package io.seatlock.lock.spi;

import io.seatlock.lock.internal.DaemonThreads;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * {@link StoreLease#keepAlive}'s schedule, the one every kept-alive lease of a store follows. It
 * starts a renewal every third of the ttl without waiting for it (a renewal still under way is not started twice),
 * and gives up a guard interval before the local deadline if none has come back, so the lost-lease callback precedes
 * that deadline whatever the store's call bound and however many leases share the scheduler. It never blocks the
 * scheduler's thread.
 */
final class LeaseWatchdog {

    private static final long MAX_GIVE_UP_GUARD_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** What the watchdog asks of the lease it keeps. */
    interface Kept {
        /**
         * Whether the lease is still held (neither released nor lost).
         *
         * @return true while held
         */
        boolean isHeld();

        /**
         * The local deadline now, on {@link System#nanoTime()}; a renewal that succeeds moves it.
         *
         * @return the deadline
         */
        long deadlineNanos();

        /**
         * Starts one renewal and returns at once, unless one is still under way; the renewal itself moves the deadline,
         * marks the lease lost, or counts a failure.
         *
         * @param startNanos when it was started, for the new deadline
         */
        void renewInBackground(long startNanos);

        /** No renewal came back before the guard interval: the lease counts as lost now. */
        void giveUp();
    }

    private final Kept lease;
    private final Duration ttl;
    private final ScheduledExecutorService scheduler;
    private volatile ScheduledFuture<?> next;
    /** Written and read by the watchdog's task only (one at a time). */
    private long nextRenewalNanos;

    private LeaseWatchdog(Kept lease, Duration ttl, ScheduledExecutorService scheduler) {
        this.lease = lease;
        this.ttl = ttl;
        this.scheduler = scheduler;
    }

    /**
     * Starts keeping {@code lease} alive. The first renewal is due a third of the ttl into the current term, not a
     * third after this call: a lease kept alive late in its term is renewed at once.
     *
     * @param lease     the lease
     * @param ttl       its ttl, renewed at a third of it
     * @param scheduler runs the watchdog (and nothing of the lease's that blocks)
     * @return the running watchdog
     * @throws RejectedExecutionException if the scheduler is shut down (the lock is closing)
     */
    static LeaseWatchdog start(Kept lease, Duration ttl, ScheduledExecutorService scheduler) {
        LeaseWatchdog watchdog = new LeaseWatchdog(Objects.requireNonNull(lease, "lease"), Objects.requireNonNull(ttl, "ttl"),
                Objects.requireNonNull(scheduler, "scheduler"));
        watchdog.nextRenewalNanos = lease.deadlineNanos() - 2 * renewalPeriodNanos(ttl);
        watchdog.next = scheduler.schedule(watchdog::watch, 0, TimeUnit.NANOSECONDS);
        return watchdog;
    }

    private void watch() {
        if (!lease.isHeld()) {
            return;
        }
        long now = System.nanoTime();
        long giveUpAt = lease.deadlineNanos() - giveUpGuardNanos(ttl);
        if (now - giveUpAt >= 0) {
            lease.giveUp();
            return;
        }
        if (now - nextRenewalNanos >= 0) {
            nextRenewalNanos = now + renewalPeriodNanos(ttl);
            lease.renewInBackground(now);
        }
        long wakeAt = nextRenewalNanos - giveUpAt < 0 ? nextRenewalNanos : giveUpAt;
        if (lease.isHeld()) {
            try {
                next = scheduler.schedule(this::watch, Math.max(0, wakeAt - now), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closing) {
                // the lock closes and releases the lease
            }
        }
    }

    /**
     * A scheduler for the watchdogs of one lock's leases: one daemon thread, {@code seatlock-watchdog}, started with
     * the first lease kept alive; a stopped watchdog leaves nothing queued. Shut it down with the lock.
     *
     * @return the scheduler
     */
    static ScheduledExecutorService scheduler() {
        ScheduledThreadPoolExecutor scheduler =
                new ScheduledThreadPoolExecutor(1, DaemonThreads.named("seatlock-watchdog"));
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }

    /** Stops the watchdog; a renewal under way finishes. */
    void stop() {
        ScheduledFuture<?> current = next;
        if (current != null) {
            current.cancel(false);
        }
    }

    /**
     * How often a kept-alive lease is renewed: a third of its ttl, at least a millisecond.
     *
     * @param ttl the lease's ttl
     * @return the period in nanoseconds
     */
    static long renewalPeriodNanos(Duration ttl) {
        return Math.max(TimeUnit.MILLISECONDS.toNanos(1), ttl.toNanos() / 3);
    }

    /**
     * How long before the local deadline the watchdog gives up: a tenth of the ttl, at most one second.
     *
     * @param ttl the lease's ttl
     * @return the guard in nanoseconds
     */
    static long giveUpGuardNanos(Duration ttl) {
        return Math.min(ttl.toNanos() / 10, MAX_GIVE_UP_GUARD_NANOS);
    }

    /**
     * Takes {@code permit} by {@code deadline}, waiting on through an interrupt, which is kept for the caller: the one
     * renewal a lease may have in flight, for a caller who must not race a background renewal.
     *
     * @param permit   the lease's renewal permit
     * @param deadline when to give up, on {@link System#nanoTime()}
     * @return whether it was taken
     */
    static boolean takeUninterruptibly(Semaphore permit, long deadline) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return permit.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
