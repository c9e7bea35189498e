package io.seatlock.lock;

/**
 * Redis could not be asked within the configured timeout. The caller decides: fail closed (refuse the
 * work) or fail open (let the referee, the conditional write, decide alone).
 */
public class LockUnavailableException extends LockException {
    public LockUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
