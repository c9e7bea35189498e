package io.seatlock.lock;

/**
 * The lock was closed (its application is shutting down): the call sent nothing, and what this instance held was
 * released with the lock. A recipe that runs on the lock (an election, a scheduler) ends when it hears this.
 */
public class LockClosedException extends IllegalStateException {
    /**
     * A call on a closed lock.
     * @param message what was called
     */
    public LockClosedException(String message) {
        super(message);
    }
}
