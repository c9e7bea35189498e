package io.seatlock.lock;

import io.seatlock.lock.internal.ReleaseHints;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A lock that every replica sees. It keeps the crowd away; it does not make overlapping work
 * impossible. Declare the {@link OverlapImpact} of each use.
 *
 * <p>A grant is a {@link LockLease}: held until released or until its ttl runs out in the lock's store, whichever
 * comes first, and valid for its holder until a local deadline a safety margin before that. Each grant carries a
 * {@link FencingToken} larger than every earlier grant's of the same name, for storage to refuse a holder whose
 * lease has passed to another ({@link Fence}). Every call that asks the store is bounded; a store that does not answer
 * within the bound is a {@link LockUnavailableException}, never a hang.
 *
 * <p>Implementations document how these map onto their store and what their call bound is: the Redis lock
 * ({@code RedisLockClient} in {@code seatlock-redis}), and the test kit's in-memory lock on a manual clock.
 */
public interface DistributedLock {

    /**
     * Takes the lock if nobody holds it; never waits.
     *
     * Waits for the lock's store at most its call bound and is not interruptible (an interrupt is kept for
     * the caller). A grant whose answer arrives after its own local deadline counts as not acquired: it is
     * deleted by owner and the result is empty.
     *
     * @param name   the lock's name: 1 to 200 characters, no braces or control characters
     * @param ttl    how long the store keeps the lease unless renewed or released; whole milliseconds, at most 30 days
     * @param impact what breaks if two holders overlap
     * @return the lease, or empty if someone else holds the lock (or the grant came too late to be valid)
     * @throws IllegalArgumentException for a blank, oversized or malformed name, or a ttl not positive or over 30 days
     * @throws LeaseTooShortException   for a ttl no longer than the safety margin (it could never be valid)
     * @throws LockUnavailableException if the store did not answer within the call bound (whether it granted is then
     *                                  unknown; a late grant is taken back)
     */
    Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact);

    /**
     * As {@link #tryAcquire}, but first looks, in the same round trip, for the lock's "decided" marker, left
     * by a holder that finished the work ({@link LockLease#releaseDecided}): then it takes nothing and says
     * so. A busy answer carries the holder's remaining time to live. The marker is a hint for turning the
     * crowd away cheaply (a sold seat, a paid invoice), never the decision itself: it can only be missing
     * (the store lost it), so whatever the lock guards must still check its own storage.
     *
     * <p>The default implementation has no markers: it never reports decided, and asks for the remaining
     * time to live separately.
     *
     * @param name   the lock's name
     * @param ttl    how long the store keeps the lease unless renewed or released
     * @param impact what breaks if two holders overlap
     * @return decided, busy (with the holder's remaining time when known) or the lease
     * @throws LockUnavailableException if the store did not answer within the call bound
     */
    default AcquireAttempt tryAcquireUnlessDecided(String name, Duration ttl, OverlapImpact impact) {
        Optional<LockLease> lease = tryAcquire(name, ttl, impact);
        return lease.isPresent() ? AcquireAttempt.acquired(lease.get())
                : AcquireAttempt.busy(remainingTtl(name).orElse(null));
    }

    /**
     * Waits up to {@code maxWait} for the lock, backing off between attempts (no busy spin).
     *
     * @param name    the lock's name
     * @param ttl     how long the store keeps the lease unless renewed or released
     * @param impact  what breaks if two holders overlap
     * @param maxWait how long to wait at most; zero tries once
     * @return the lease
     * @throws LockNotAcquiredException if the lock stayed busy for {@code maxWait}
     * @throws InterruptedException     if the waiting thread was interrupted, also while a request was in
     *                                  flight (a grant that lands afterwards is deleted by owner)
     */
    LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException;

    /**
     * As {@link #acquire}, in order of arrival across replicas: the caller takes its place in a line the store keeps
     * for the name, and the lock goes to the first in line, so no waiter is overtaken by one that came later, in this
     * process or another. A caller that gives up (its {@code maxWait}, an interrupt) leaves the line; one whose process
     * dies is dropped from it once it stops coming back, within the implementation's stated bound. The order holds
     * among callers of this method; a {@code tryAcquire} or {@code acquire} of the same name does not stand in line.
     * Fencing tokens and every other promise are those of {@code acquire}. An implementation whose store keeps no line
     * (this default) refuses.
     *
     * @param name    the lock's name
     * @param ttl     how long the store keeps the lease unless renewed or released
     * @param impact  what breaks if two holders overlap
     * @param maxWait how long to wait at most; zero tries once
     * @return the lease
     * @throws LockNotAcquiredException      if the lock was not this caller's within {@code maxWait}
     * @throws InterruptedException          if the waiting thread was interrupted
     * @throws UnsupportedOperationException if the implementation keeps no line
     */
    default LockLease acquireInOrder(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no line of waiters: "
                + "acquire in order of arrival is not supported; use acquire");
    }

    /**
     * A hint for waiters: completes soon after the current holder of {@code name} releases it, where the
     * implementation can tell (one whose store announces releases), so a waiter can try again at once instead of
     * at its next poll. It grants nothing, and it may never complete (an expired lease, a lost message, an
     * implementation that cannot tell: this default): wait on it with a bound of your own, and cancel it when you
     * stop waiting. Each implementation says on which thread it completes; what you chain on it must not assume
     * it may block.
     *
     * @param name the lock's name
     * @return completes when the lock may have become free
     */
    default CompletableFuture<Void> whenReleased(String name) {
        return new CompletableFuture<>();
    }

    /**
     * Waits until {@link #whenReleased} says the lock may be free or {@code atMost} passes, whichever comes
     * first; where the implementation cannot tell, that is a pause of {@code atMost}. Grants nothing: try to
     * acquire afterwards.
     *
     * @param name   the lock's name
     * @param atMost the longest wait, not negative
     * @throws InterruptedException     if the waiting thread was interrupted
     * @throws IllegalArgumentException if {@code atMost} is negative (a null one: {@link NullPointerException});
     *                                  nothing is asked of the lock then
     */
    default void awaitRelease(String name, Duration atMost) throws InterruptedException {
        ReleaseHints.await(() -> whenReleased(name), atMost);
    }

    /**
     * Runs {@code task} under the lock, renewing it in the background, and releases it afterwards.
     * If the lease is lost while the task runs, the task's thread is interrupted and
     * {@link LockLostException} is thrown once it returns; a loss heard after the task returned interrupts nothing
     * (the caller's thread may be at other work by then).
     *
     * @param name   the lock's name
     * @param ttl    the lease, renewed at a third of it while the task runs
     * @param impact what breaks if two holders overlap
     * @param task   the work
     * @param <T>    what the work returns
     * @return whether the task ran (it does not when the lock is busy) and what it returned
     * @throws LockLostException if the lease was lost while the task ran
     */
    default <T extends @Nullable Object> TaskResult<T> executeLocked(String name, Duration ttl, OverlapImpact impact,
                                                                   LockedTask<T> task) {
        Objects.requireNonNull(task, "task must not be null");
        Optional<LockLease> acquired = tryAcquire(name, ttl, impact);
        if (acquired.isEmpty()) {
            return TaskResult.notExecuted();
        }
        TaskInterrupter interrupter = new TaskInterrupter(Thread.currentThread());
        try (LockLease lease = acquired.get()) {
            lease.keepAlive(interrupter);
            T result = null;
            @Nullable Exception failure = null;
            try {
                result = task.run(lease);
            } catch (Exception e) {
                failure = e;
            } finally {
                interrupter.taskEnded(); // a lost-lease callback that comes later interrupts nobody
            }
            if (failure != null) {
                if (lease.isLost()) {
                    throw LockLostException.whileRunning(name, failure);
                }
                if (failure instanceof RuntimeException re) {
                    throw re;
                }
                throw new LockException("task under lock '" + name + "' failed: " + failure.getMessage(), failure);
            }
            if (lease.isLost()) {
                throw LockLostException.whileRunning(name, null);
            }
            return TaskResult.executed(result);
        }
    }

    /**
     * The lease's remaining time to live, as the store counts it.
     *
     * @param name the lock's name
     * @return the time left, or empty if nobody holds it
     */
    Optional<Duration> remainingTtl(String name);

    /**
     * Who holds the lock now: the instance id in the holder's owner token, or empty if nobody does. For
     * status displays (which replica leads), never for decisions: the answer is stale on arrival.
     *
     * @param name the lock's name
     * @return the holder's instance id, or empty
     */
    Optional<String> holder(String name);

    /**
     * Names of the locks held right now that start with {@code namePrefix}; its cost may grow with everything in
     * the store (each implementation says). For status displays, never for decisions.
     *
     * @param namePrefix the start of the names, each character taken literally (a {@code *} matches only itself); no
     *                   braces or control characters, which no name has
     * @return the names held now
     * @throws IllegalArgumentException for a prefix with braces or control characters
     */
    Set<String> heldNames(String namePrefix);

    /**
     * Which of {@code names} are held right now, answered within one call bound, at a cost that follows the names
     * asked about, not the size of the store. For status displays such as a seat map, never for decisions: the
     * answer is stale on arrival.
     *
     * @param names the lock names to look at
     * @return those of them held now
     */
    Set<String> held(Collection<String> names);
}
