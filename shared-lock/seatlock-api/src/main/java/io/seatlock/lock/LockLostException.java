package io.seatlock.lock;

import org.jspecify.annotations.Nullable;

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

    /**
     * The lease of a task's lock was lost while the task ran. Clears the interrupt the lock aimed at the
     * task, so it does not leak to the caller.
     *
     * @param name  the lock's name
     * @param cause what the task threw after the loss, if anything
     * @return the exception to throw
     */
    static LockLostException whileRunning(String name, @Nullable Exception cause) {
        Thread.interrupted();
        LockLostException lost = new LockLostException("lock '" + name + "' was lost while its task ran");
        if (cause != null) {
            lost.addSuppressed(cause);
        }
        return lost;
    }
}
