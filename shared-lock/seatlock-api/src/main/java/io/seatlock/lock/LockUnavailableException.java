package io.seatlock.lock;

/**
 * Redis could not be asked within the configured timeout. The caller decides: fail closed (refuse the
 * work) or fail open (let the referee, the conditional write, decide alone).
 */
public class LockUnavailableException extends LockException {
    /**
     * Redis did not answer.
     * @param message which lock group, and what happened
     * @param cause   the client's error
     */
    public LockUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
