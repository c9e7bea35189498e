package io.seatlock.lock.spi;

import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;

import java.time.Duration;
import java.util.Optional;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * For implementations of {@link io.seatlock.lock.DistributedLock#acquire}, one per lock: tries, then waits for a release
 * hint or a jittered back-off (doubling from the first to the longest pause), whichever comes first, until granted or
 * {@code maxWait} has passed. No busy spin: a waiter not woken by a release tries again within its back-off.
 *
 * <p>The threads of one lock that wait for the same name stand in line, in their order of arrival: only the first
 * asks the store and waits for the release hint; the others park, asking nothing, until they are first. So a release
 * wakes one attempt per lock (per replica), not every waiting thread, and a waiter that loses to another replica
 * waits again alone; each thread of a replica gets the name in its turn. A parked thread still ends at its own
 * {@code maxWait} and answers an interrupt.
 */
public final class BlockingAcquire {

    /** One attempt. */
    @FunctionalInterface
    public interface Attempt {
        /**
         * Tries once.
         *
         * @return the lease, or empty if the lock is held
         * @throws InterruptedException if the attempt was interrupted
         */
        Optional<LockLease> tryOnce() throws InterruptedException;
    }

    /** The wait between attempts. */
    @FunctionalInterface
    public interface Pause {
        /**
         * Waits until the lock may be free or {@code atMost} passes.
         *
         * @param atMost the longest wait
         * @throws InterruptedException if the waiting thread was interrupted
         */
        void await(Duration atMost) throws InterruptedException;
    }

    private final LeaseTiming timing;
    /** The waiting threads of each name, first to arrive first; a name nobody waits for has no entry. */
    private final ConcurrentHashMap<String, ArrayDeque<Place>> lines = new ConcurrentHashMap<>();

    /**
     * A lock's blocking acquire.
     *
     * @param timing its back-off
     */
    public BlockingAcquire(LeaseTiming timing) {
        this.timing = Objects.requireNonNull(timing, "timing");
    }

    /**
     * Tries until granted or {@code maxWait} has passed; a bad {@code maxWait} is refused before the first attempt.
     *
     * @param name    the lock's name
     * @param maxWait how long to wait at most, not negative
     * @param attempt one attempt
     * @param pause   the wait between attempts, e.g. {@code atMost -> awaitRelease(name, atMost)}
     * @return the lease
     * @throws LockNotAcquiredException if the lock stayed held for {@code maxWait}
     * @throws InterruptedException     if the thread was interrupted
     * @throws IllegalArgumentException if {@code maxWait} is null or negative
     */
    public LockLease acquire(String name, Duration maxWait, Attempt attempt, Pause pause) throws InterruptedException {
        long deadline = System.nanoTime() + LockSpec.requireValidWait(maxWait);
        Place place = join(name);
        try {
            if (!place.awaitFirst(deadline)) {
                throw notAcquired(name, maxWait);
            }
            return tryUntil(name, maxWait, deadline, attempt, pause);
        } finally {
            leave(name, place);
        }
    }

    /**
     * As {@link #acquire}, but every thread asks the store itself, standing in no line of this lock's: for a store
     * that keeps the line across replicas ({@link io.seatlock.lock.DistributedLock#acquireInOrder}), where a line of
     * this process would keep its later threads from taking their places in the store's.
     *
     * @param name    the lock's name
     * @param maxWait how long to wait at most, not negative
     * @param attempt one attempt, which also keeps the caller's place in the store's line
     * @param pause   the wait between attempts
     * @return the lease
     * @throws LockNotAcquiredException if the lock stayed held for {@code maxWait}
     * @throws InterruptedException     if the thread was interrupted
     * @throws IllegalArgumentException if {@code maxWait} is null or negative
     */
    public LockLease acquireWithoutLine(String name, Duration maxWait, Attempt attempt, Pause pause)
            throws InterruptedException {
        return tryUntil(name, maxWait, System.nanoTime() + LockSpec.requireValidWait(maxWait), attempt, pause);
    }

    private LockLease tryUntil(String name, Duration maxWait, long deadline, Attempt attempt, Pause pause)
            throws InterruptedException {
        long backoff = timing.minBackoff().toNanos();
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for lock '" + name + "'");
            }
            Optional<LockLease> lease = attempt.tryOnce();
            if (lease.isPresent()) {
                return lease.get();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw notAcquired(name, maxWait);
            }
            long jittered = ThreadLocalRandom.current().nextLong(backoff / 2, backoff + 1);
            pause.await(Duration.ofNanos(Math.min(left, jittered)));
            backoff = Math.min(backoff * 2, timing.maxBackoff().toNanos());
        }
    }

    private static LockNotAcquiredException notAcquired(String name, Duration maxWait) {
        return new LockNotAcquiredException("lock '" + name + "' was still held by another owner after " + maxWait);
    }

    /** Stands the calling thread in {@code name}'s line; first if nobody else waits. */
    private Place join(String name) {
        Place place = new Place(Thread.currentThread());
        lines.compute(name, (n, line) -> {
            ArrayDeque<Place> joined = line != null ? line : new ArrayDeque<>();
            joined.addLast(place);
            if (joined.size() == 1) {
                place.first = true;
            }
            return joined;
        });
        return place;
    }

    /** Takes {@code place} out of its line; the next in line, if it was first, is now first and unparked. */
    private void leave(String name, Place place) {
        lines.computeIfPresent(name, (n, line) -> {
            boolean wasFirst = line.peekFirst() == place;
            line.remove(place);
            Place next = line.peekFirst();
            if (wasFirst && next != null) {
                next.first = true;
                LockSupport.unpark(next.thread);
            }
            return line.isEmpty() ? null : line;
        });
    }

    /** One waiting thread's place in a line. */
    private static final class Place {
        final Thread thread;
        volatile boolean first;

        Place(Thread thread) {
            this.thread = thread;
        }

        /** Parks until first in line; false if {@code deadline} passed first. */
        boolean awaitFirst(long deadline) throws InterruptedException {
            while (!first) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                LockSupport.parkNanos(this, left);
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting in line for a lock");
                }
            }
            return true;
        }
    }
}
