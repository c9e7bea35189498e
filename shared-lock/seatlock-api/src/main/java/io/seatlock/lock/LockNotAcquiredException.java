package io.seatlock.lock;

/** A blocking acquire waited its full {@code maxWait} and the lock stayed busy. */
public class LockNotAcquiredException extends LockException {
    /**
     * A wait that ended without the lock.
     * @param message which lock, and how long it waited
     */
    public LockNotAcquiredException(String message) {
        super(message);
    }
}
