package io.seatlock.lock.slots;

import java.time.Instant;
import java.util.Optional;

/**
 * The fire time of the scheduled run on the current thread: the instant its cron expression or trigger
 * scheduled it for, not when it happened to start. A run that starts late (a paused JVM, a busy pool) or on
 * a replica whose clock is a few seconds off still names the same slot as its peers.
 */
public final class ScheduledSlot {

    private static final ThreadLocal<Instant> CURRENT = new ThreadLocal<>();

    private ScheduledSlot() {
    }

    /**
     * The slot of the scheduled run on this thread.
     *
     * @return the fire time; empty outside a trigger-scheduled run
     */
    public static Optional<Instant> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /**
     * Runs {@code task} as the run scheduled for {@code slot}.
     *
     * @param slot the fire time it was scheduled for
     * @param task the run
     */
    public static void runAs(Instant slot, Runnable task) {
        Instant outer = CURRENT.get();
        CURRENT.set(slot);
        try {
            task.run();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }
}
