package io.seatlock.lock;

import java.time.Duration;

/**
 * Hears what the lock does, for metrics and logs. Callbacks run on the caller's or the renewal
 * thread and must not block. A listener is observability only: whatever it throws is logged and
 * ignored, and never changes what the lock does. The group is the lock name up to its first ':' (e.g. {@code seat}), so
 * per-seat names do not explode metric cardinality.
 */
public interface LockListener {

    /** A listener that hears nothing. */
    LockListener NOOP = new LockListener() {
    };

    /**
     * An acquire was sent.
     *
     * @param group the lock's group
     */
    default void onAttempt(String group) {
    }

    /**
     * A lock was granted.
     *
     * @param group  the lock's group
     * @param impact what its holder declared breaks on overlap
     */
    default void onAcquired(String group, OverlapImpact impact) {
    }

    /**
     * A lock was held by someone else.
     *
     * @param group the lock's group
     */
    default void onBusy(String group) {
    }

    /**
     * An attempt found the lock's "decided" marker and took nothing.
     *
     * @param group the lock's group
     */
    default void onDecided(String group) {
    }

    /**
     * The store did not answer in time.
     *
     * @param group the lock's group
     */
    default void onUnavailable(String group) {
    }

    /**
     * The store granted the lock but its answer came after the lease's local deadline; the grant was taken back.
     *
     * @param group the lock's group
     */
    default void onLateGrant(String group) {
    }

    /**
     * A release found the lock still ours.
     *
     * @param group the lock's group
     * @param held  how long it was held
     */
    default void onReleased(String group, Duration held) {
    }

    /**
     * A release, renewal or watchdog found the lock gone or owned by another holder.
     *
     * @param group  the lock's group
     * @param impact what an overlap of its holders breaks, as the lease was asked for: a lost
     *               {@link OverlapImpact#BROKEN_PROMISE} lease is one to page on
     * @param held   how long it had been held
     */
    default void onLost(String group, OverlapImpact impact, Duration held) {
    }

    /**
     * A renewal found the lock still ours.
     *
     * @param group the lock's group
     */
    default void onRenewed(String group) {
    }

    /**
     * A renewal got no answer.
     *
     * @param group the lock's group
     */
    default void onRenewalFailed(String group) {
    }

    /**
     * A fence refused a stale token.
     *
     * @param resource what the write guarded
     */
    default void onFencingRejected(String resource) {
    }
}
