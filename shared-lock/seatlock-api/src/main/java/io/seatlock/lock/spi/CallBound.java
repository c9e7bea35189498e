package io.seatlock.lock.spi;

import java.time.Duration;

/** For implementations: the bound every call to the store keeps. */
public interface CallBound {

    /**
     * When a call started now must have its answer.
     *
     * @return the deadline on {@link System#nanoTime()}
     */
    long callDeadline();

    /**
     * The bound itself, for messages.
     *
     * @return the call timeout
     */
    Duration callTimeout();
}
