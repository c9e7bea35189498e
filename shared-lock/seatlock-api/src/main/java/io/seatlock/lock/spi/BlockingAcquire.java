package io.seatlock.lock.spi;

import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * For implementations of {@link io.seatlock.lock.DistributedLock#acquire}: tries, then waits for a release hint or a
 * jittered back-off (doubling from the first to the longest pause), whichever comes first, until granted or
 * {@code maxWait} has passed. No busy spin: a waiter not woken by a release tries again within its back-off.
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

    private BlockingAcquire() {
    }

    /**
     * Tries until granted or {@code maxWait} has passed; a bad {@code maxWait} is refused before the first attempt.
     *
     * @param name       the lock's name, for the messages
     * @param maxWait    how long to wait at most, not negative
     * @param minBackoff the first pause
     * @param maxBackoff the longest pause
     * @param attempt    one attempt
     * @param pause      the wait between attempts, e.g. {@code atMost -> awaitRelease(name, atMost)}
     * @return the lease
     * @throws LockNotAcquiredException if the lock stayed held for {@code maxWait}
     * @throws InterruptedException     if the thread was interrupted
     * @throws IllegalArgumentException if {@code maxWait} is null or negative
     */
    public static LockLease acquire(String name, Duration maxWait, Duration minBackoff, Duration maxBackoff,
                                    Attempt attempt, Pause pause) throws InterruptedException {
        long deadline = System.nanoTime() + LockSpec.requireValidWait(maxWait);
        long backoff = minBackoff.toNanos();
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
                throw new LockNotAcquiredException("lock '" + name + "' was still held by another owner after " + maxWait);
            }
            long jittered = ThreadLocalRandom.current().nextLong(backoff / 2, backoff + 1);
            pause.await(Duration.ofNanos(Math.min(left, jittered)));
            backoff = Math.min(backoff * 2, maxBackoff.toNanos());
        }
    }
}
