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

    default void onAttempt(String group) {
    }

    default void onAcquired(String group, OverlapImpact impact) {
    }

    default void onBusy(String group) {
    }

    /** An attempt found the lock's "decided" marker and took nothing. */
    default void onDecided(String group) {
    }

    default void onUnavailable(String group) {
    }

    /** Redis granted the lock but its answer came after the lease's local deadline; the grant was taken back. */
    default void onLateGrant(String group) {
    }

    /** A release found the lock still ours, after holding it for {@code held}. */
    default void onReleased(String group, Duration held) {
    }

    /** A release, renewal or watchdog found the lock gone or owned by another holder. */
    default void onLost(String group, Duration held) {
    }

    default void onRenewed(String group) {
    }

    default void onRenewalFailed(String group) {
    }

    default void onFencingRejected(String resource) {
    }
}
