package io.seatlock.lock;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * A lock that every replica sees. It keeps the crowd away; it does not make overlapping work
 * impossible. Declare the {@link OverlapImpact} of each use.
 */
public interface DistributedLock {

    /**
     * Takes the lock if nobody holds it; never waits.
     *
     * @return the lease, or empty if someone else holds the lock
     * @throws IllegalArgumentException for a blank, oversized or malformed name or a non-positive ttl
     * @throws LockUnavailableException if Redis did not answer within the command timeout
     */
    Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact);

    /**
     * Waits up to {@code maxWait} for the lock, backing off between attempts (no busy spin).
     *
     * @throws LockNotAcquiredException if the lock stayed busy for {@code maxWait}
     * @throws InterruptedException     if the waiting thread was interrupted
     */
    LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException;

    /**
     * Runs {@code task} under the lock, renewing it in the background, and releases it afterwards.
     * If the lease is lost while the task runs, the task's thread is interrupted and
     * {@link LockLostException} is thrown once it returns.
     *
     * @return the task's result, or empty if the lock was busy (the task did not run)
     */
    <T> Optional<T> executeLocked(String name, Duration ttl, OverlapImpact impact, LockedTask<T> task);

    /** The lock's remaining time to live in Redis ({@code PTTL}), or empty if nobody holds it. */
    Optional<Duration> remainingTtl(String name);

    /**
     * Names of the locks held right now that start with {@code namePrefix} (a {@code SCAN}): for status
     * displays such as a seat map, never for decisions, since the answer is stale on arrival.
     */
    Set<String> heldNames(String namePrefix);
}
