package io.seatlock.lock.spi;

import io.seatlock.lock.internal.CallbackThreads;
import io.seatlock.lock.LockClosedException;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * For implementations: the leases a lock holds, the threads that keep them ({@link LeaseWatchdog#scheduler()},
 * {@link CallbackThreads}) and the closing of that lock, so that a close leaves nothing behind. Acquire attempts under
 * way are counted; a closing lock lets them land, and a grant that lands as it closes is released with the rest (its
 * caller hears {@link LockClosedException}). After the close, every call is refused at once.
 *
 * @param <L> the lock's lease type
 */
public final class HeldLeases<L extends LockLease> {

    private static final System.Logger LOG = System.getLogger(HeldLeases.class.getName());
    /** How often a closing lock looks whether the attempts under way have landed. */
    private static final long ATTEMPTS_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * One acquire attempt.
     *
     * @param <T> what it returns
     * @param <E> what it may throw
     */
    @FunctionalInterface
    public interface Attempt<T, E extends Exception> {
        /**
         * Runs it.
         *
         * @return what it found
         * @throws E what it may throw
         */
        T run() throws E;
    }

    private final String lock;
    private final ScheduledExecutorService watchdogs = LeaseWatchdog.scheduler();
    private final CallbackThreads callbacks = new CallbackThreads();
    private final Set<L> held = ConcurrentHashMap.newKeySet();
    private final LongAdder attemptsInFlight = new LongAdder();
    private volatile boolean closed;

    /**
     * Nothing held yet.
     *
     * @param lock how messages name the lock, such as {@code this lock client}
     */
    public HeldLeases(String lock) {
        this.lock = lock;
    }

    /**
     * What this lock hands each of its leases.
     *
     * @param store    the store's name in messages
     * @param calls    the bound of every call to the store
     * @param margin   the safety margin
     * @param listener the lock's guarded listener
     * @return the services, with this lock's threads and its held leases
     */
    public LeaseServices services(String store, CallBound calls, SafetyMargin margin, LockListener listener) {
        return new LeaseServices(store, calls, margin, listener, watchdogs, callbacks, this::ended);
    }

    /**
     * A release hint for the user, completed on this lock's callback threads: what a caller chains on
     * {@link io.seatlock.lock.DistributedLock#whenReleased} never runs on the store's I/O thread or under a lock.
     *
     * @param hint the store's own hint
     * @return a hint completed as {@code hint} is, on a callback thread; cancelling it cancels {@code hint}
     */
    public CompletableFuture<Void> relay(CompletableFuture<Void> hint) {
        return callbacks.relay(hint);
    }

    /**
     * Runs one acquire attempt, refused at once on a closed lock; a close waits for it to land.
     *
     * @param attempt the attempt
     * @param <T>     what it returns
     * @param <E>     what it may throw
     * @return what it returned
     * @throws E                   what it threw
     * @throws LockClosedException if the lock is closed
     */
    public <T, E extends Exception> T attempt(Attempt<T, E> attempt) throws E {
        attemptsInFlight.increment();
        try {
            requireOpen();
            return attempt.run();
        } finally {
            attemptsInFlight.decrement();
        }
    }

    /**
     * Refuses a call on a closed lock, which would otherwise fail as if the store were down.
     *
     * @throws LockClosedException if the lock is closed
     */
    public void requireOpen() {
        if (closed) {
            throw new LockClosedException(lock + " is closed");
        }
    }

    /**
     * Holds a lease the store granted.
     *
     * @param lease the lease
     * @throws LockClosedException if the lock closed while it was acquired; the close releases it
     */
    public void granted(L lease) {
        held.add(lease);
        if (closed) { // the close waits for the attempt that made this lease, then releases what is held: it too
            throw new LockClosedException(lock + " was closed while acquiring '" + lease.name() + "'; the grant is "
                    + "released with it");
        }
    }

    /** Forgets a lease that ended (released or lost). */
    private void ended(LockLease lease) {
        held.remove(lease);
    }

    /**
     * The leases held right now.
     *
     * @return a copy
     */
    public List<LockLease> list() {
        return List.copyOf(held);
    }

    /**
     * Closes the lock's leases: from now on every call is refused; renewals stop; the attempts under way may land
     * until {@code attemptsDeadline}; then every lease held is released, all together, within {@code releaseTimeout}
     * (what does not end in time expires in the store); then the callback threads stop. A second close does nothing.
     *
     * @param attemptsDeadline how long the attempts may take, on {@link System#nanoTime()}
     * @param release          starts the release of one lease
     * @param releaseTimeout   how long the releases may take, in nanoseconds from when they start
     * @return false if it was closed already: the caller has nothing more to close
     */
    public boolean close(long attemptsDeadline, Function<? super L, ? extends CompletableFuture<?>> release,
                         long releaseTimeout) {
        if (closed) {
            return false;
        }
        closed = true;
        watchdogs.shutdownNow();
        while (attemptsInFlight.sum() > 0 && System.nanoTime() - attemptsDeadline < 0) {
            LockSupport.parkNanos(ATTEMPTS_POLL_NANOS);
        }
        CompletableFuture<?>[] releases = held.stream().map(release).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(releases).get(releaseTimeout, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.log(System.Logger.Level.WARNING, "could not release every lock on close; they expire on their own: "
                    + e.getMessage());
        }
        callbacks.shutdown();
        return true;
    }
}
