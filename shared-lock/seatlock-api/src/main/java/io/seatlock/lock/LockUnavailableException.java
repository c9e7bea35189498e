package io.seatlock.lock;

/**
 * The lock's store could not be asked within its call bound. The caller decides: fail closed (refuse the
 * work) or fail open (let the referee, the conditional write, decide alone).
 */
public class LockUnavailableException extends LockException {
    /**
     * The store did not answer.
     * @param message which lock group, and what happened
     * @param cause   the client's error
     */
    public LockUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
