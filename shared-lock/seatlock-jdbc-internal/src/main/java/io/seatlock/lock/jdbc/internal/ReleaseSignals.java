package io.seatlock.lock.jdbc.internal;

import java.util.concurrent.CompletableFuture;

/** How a lock on a database hears that a name may have become free: the hint behind {@code whenReleased}. */
public interface ReleaseSignals extends AutoCloseable {

    /**
     * Completes soon after {@code name} may have become free, as far as this store can tell; may never complete.
     *
     * @param name the lock's name
     * @return the hint; cancel it when you stop waiting
     */
    CompletableFuture<Void> next(String name);

    /**
     * This lock released {@code name}: a store that cannot announce releases wakes its own waiters here.
     *
     * @param name the lock's name
     */
    void releasedHere(String name);

    /** Stops listening and cancels every hint not yet completed. */
    @Override
    void close();
}
