package io.seatlock.lock;

import io.seatlock.lock.spi.CheckpointHandlers;

/**
 * A named point in your code where a test can hold a lock holder, as a long garbage collection or a
 * frozen VM would: call {@code Checkpoint.reach("seat-write")} right before the write a lock guards.
 * In production nothing is registered and the call is one volatile read; only seatlock's test kit
 * ({@code seatlock-test}, {@code Pauses}) registers a handler, from code, never from configuration.
 */
public final class Checkpoint {

    private Checkpoint() {
    }

    /**
     * Marks that this thread reached the checkpoint; returns at once unless a test holds it.
     *
     * @param name the checkpoint's name, e.g. {@code seat-write}
     */
    public static void reach(String name) {
        CheckpointHandlers.Handler handler = CheckpointHandlers.current();
        if (handler != null) {
            handler.reached(name);
        }
    }
}
