package io.seatlock.lock;

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

    String name();

    /** The random value stored in Redis for this grant (UUID plus instance), never reused. */
    String ownerToken();

    FencingToken fencingToken();

    OverlapImpact impact();

    /**
     * True while the local deadline (acquire start + ttl - safety margin, on a monotonic clock) has not
     * passed and the lease was neither released nor found lost. Needs no Redis round trip.
     */
    boolean isValid();

    /** How long {@link #isValid()} will stay true if nothing else happens; zero once invalid. */
    Duration validFor();

    /** Resets the TTL to the lease's original TTL if the lock is still ours. */
    boolean renew();

    /**
     * Resets the TTL to {@code ttl} if the lock is still ours (a compare-and-{@code PEXPIRE}); false if it
     * had expired or passed to another holder, in which case nothing is touched.
     *
     * @throws IllegalStateException if the lease was released
     */
    boolean renew(Duration ttl);

    /**
     * Renews in the background at about a third of the TTL until release. If a renewal finds the lock
     * lost, or renewals keep failing until the local deadline is near, {@code onLost} runs once, before
     * that deadline.
     */
    LockLease keepAlive(Runnable onLost);

    /** True while {@link #keepAlive} renews this lease in the background. */
    boolean isKeptAlive();

    /** True once this holder knows the lock is gone (renewal or release found it taken or expired). */
    boolean isLost();

    ReleaseOutcome release();

    /**
     * Releases and, in the same round trip, leaves the lock's "decided" marker for {@code keepMarkerFor}: the
     * work is done (a booking committed), so {@link DistributedLock#tryAcquireUnlessDecided} turns later
     * callers away without taking the lock. The marker is set even if this lease was lost (the work is
     * done either way); the release itself is owner-checked as always. Call it only after the outcome is
     * durable. The default implementation has no markers and just releases.
     */
    default ReleaseOutcome releaseDecided(Duration keepMarkerFor) {
        return release();
    }

    /**
     * Ends this lease but lets the lock stand for {@code keepFor} more (ShedLock's
     * {@code lockAtLeastFor}), owner-checked like a renewal; releases at once if {@code keepFor} is
     * not positive.
     */
    ReleaseOutcome releaseAfter(Duration keepFor);

    /** Releases; never throws, so it is safe in try-with-resources on any error path. */
    @Override
    void close();
}
