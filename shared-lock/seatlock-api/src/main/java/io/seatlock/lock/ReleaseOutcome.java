package io.seatlock.lock;

/** What a release found in the lock's store. */
public enum ReleaseOutcome {
    /** The lock was still ours and is now deleted. */
    RELEASED,
    /** The lock had expired or belongs to someone else now; nothing was touched. */
    LOST,
    /** This lease was released before; nothing was sent. */
    ALREADY_RELEASED
}
