package io.seatlock.lock;

/** A blocking acquire waited its full {@code maxWait} and the lock stayed busy. */
public class LockNotAcquiredException extends LockException {
    public LockNotAcquiredException(String message) {
        super(message);
    }
}
