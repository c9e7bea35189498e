package io.seatlock.lock;

/** Base of every failure the lock reports. */
public class LockException extends RuntimeException {
    /**
     * A failure with a message.
     * @param message what went wrong
     */
    public LockException(String message) {
        super(message);
    }

    /**
     * A failure with its cause.
     * @param message what went wrong
     * @param cause   why
     */
    public LockException(String message, Throwable cause) {
        super(message, cause);
    }
}
