package io.seatlock.lock;

/**
 * The lease ended while its holder still worked: it expired, renewal failed, or the key was deleted
 * behind its back. Any write the holder made under {@link OverlapImpact#BROKEN_PROMISE} must have been
 * fenced; work the holder had not started must not start.
 */
public class LockLostException extends LockException {
    /**
     * A lease that ended while its holder worked.
     * @param message which lock
     */
    public LockLostException(String message) {
        super(message);
    }
}
