package io.seatlock.lock;

import io.seatlock.lock.spi.LockSpec;

import java.time.Duration;

/**
 * One grant of a lock. Close it (try-with-resources) to release it with a compare-and-delete that can
 * never remove another holder's lock.
 *
 * <p>A lease is only a promise about the past: {@link #isValid()} turning false is certain, turning
 * true is not, because the holder can pause right after asking. Writes that must not overlap carry
 * {@link #fencingToken()} to storage that checks it.
 */
public interface LockLease extends AutoCloseable {

    /**
     * The lock's name.
     *
     * @return the name
     */
    String name();

    /**
     * The random value the store keeps for this grant (UUID plus instance), never reused.
     *
     * @return the owner token
     */
    String ownerToken();

    /**
     * This grant's fencing token: pass it to every write that must not overlap.
     *
     * @return the token, larger than every earlier grant's of this name
     */
    FencingToken fencingToken();

    /**
     * What the holder declared breaks on overlap.
     *
     * @return the impact
     */
    OverlapImpact impact();

    /**
     * True while the local deadline (acquire start + ttl - safety margin, on a monotonic clock) has not
     * passed and the lease was neither released nor found lost. Needs no round trip to the store.
     *
     * @return whether the lease may still be relied on
     */
    boolean isValid();

    /**
     * How long {@link #isValid()} will stay true if nothing else happens.
     *
     * @return the time left; zero once invalid
     */
    Duration validFor();

    /**
     * Resets the TTL to the lease's original TTL if the lock is still ours.
     *
     * @return false if it had expired or passed to another holder
     */
    boolean renew();

    /**
     * Resets the TTL to {@code ttl} if the lock is still ours (a compare-and-{@code PEXPIRE}); false if it
     * had expired or passed to another holder, in which case nothing is touched.
     *
     * @param ttl the new time to live
     * @return whether the lock was still ours and now has {@code ttl} to live
     * @throws IllegalStateException if the lease was released
     */
    boolean renew(Duration ttl);

    /**
     * Renews in the background at about a third of the TTL until release. If a renewal finds the lock
     * lost, or renewals keep failing until the local deadline is near, {@code onLost} runs once, before
     * that deadline.
     *
     * @param onLost run once, on a thread of its own, if the lease is lost while kept alive; whatever it throws is
     *               logged and changes nothing
     * @return this lease
     */
    LockLease keepAlive(Runnable onLost);

    /**
     * Whether a watchdog renews this lease.
     *
     * @return true while {@link #keepAlive} renews this lease in the background
     */
    boolean isKeptAlive();

    /**
     * Whether this holder knows the lock is gone.
     *
     * @return true once a renewal or release found it taken or expired
     */
    boolean isLost();

    /**
     * Releases with a compare-and-delete that never removes another holder's lock. The lease ends locally
     * even if the store does not answer.
     *
     * @return what the release found
     * @throws LockUnavailableException if the store did not answer within the call bound
     */
    ReleaseOutcome release();

    /**
     * Releases and, in the same round trip, leaves the lock's "decided" marker for {@code keepMarkerFor}: the
     * work is done (a booking committed), so {@link DistributedLock#tryAcquireUnlessDecided} turns later
     * callers away without taking the lock. The marker is set even if this lease was lost (the work is
     * done either way); the release itself is owner-checked as always. Call it only after the outcome is
     * durable. The default implementation has no markers and just releases.
     *
     * @param keepMarkerFor how long the marker stays, 1 ms to 30 days
     * @return what the release found
     * @throws IllegalArgumentException if {@code keepMarkerFor} is missing or out of range; the lease stays held
     */
    default ReleaseOutcome releaseDecided(Duration keepMarkerFor) {
        LockSpec.requireValidMarkerTime(keepMarkerFor);
        return release();
    }

    /**
     * Ends this lease but lets the lock stand for {@code keepFor} more (ShedLock's
     * {@code lockAtLeastFor}), owner-checked like a renewal; releases at once if {@code keepFor} is
     * not positive.
     *
     * @param keepFor how much longer the lock stands, at most 30 days
     * @return what the release found
     * @throws IllegalArgumentException if {@code keepFor} is over 30 days; the lease stays held
     */
    ReleaseOutcome releaseAfter(Duration keepFor);

    /** Releases; never throws, so it is safe in try-with-resources on any error path. */
    @Override
    void close();
}
