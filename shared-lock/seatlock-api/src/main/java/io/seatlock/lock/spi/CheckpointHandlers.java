package io.seatlock.lock.spi;

import org.jspecify.annotations.Nullable;

/**
 * For seatlock's test kit: who hears {@link io.seatlock.lock.Checkpoint#reach}. At most one handler at a
 * time; none in production.
 */
public final class CheckpointHandlers {

    private static volatile @Nullable Handler current;

    private CheckpointHandlers() {
    }

    /** Hears every checkpoint reached, on the reaching thread; may block it. */
    @FunctionalInterface
    public interface Handler {
        /**
         * A thread reached a checkpoint.
         *
         * @param name the checkpoint's name
         */
        void reached(String name);
    }

    /**
     * The handler now installed.
     *
     * @return it, or null (production)
     */
    public static @Nullable Handler current() {
        return current;
    }

    /**
     * Installs a handler until the returned registration is closed.
     *
     * @param handler the handler
     * @return closing it removes the handler
     * @throws IllegalStateException if another handler is installed
     */
    public static AutoCloseable install(Handler handler) {
        synchronized (CheckpointHandlers.class) {
            if (current != null) {
                throw new IllegalStateException("a checkpoint handler is already installed");
            }
            current = handler;
        }
        return () -> {
            synchronized (CheckpointHandlers.class) {
                if (current == handler) {
                    current = null;
                }
            }
        };
    }
}
