package io.seatlock.lock.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * For implementations: where the user's code runs, lost-lease callbacks, each on a thread of its own, and what a
 * caller chains on {@link io.seatlock.lock.DistributedLock#whenReleased}; never on a watchdog, a store's I/O thread or
 * under a lock. A lost-lease callback that throws, even an {@link Error}, is logged and changes nothing
 * ({@link Callbacks}). Threads are daemons named {@code seatlock-callback}; none starts before its first callback.
 */
public final class CallbackThreads {

    private static final System.Logger LOG = System.getLogger(CallbackThreads.class.getName());

    private final ExecutorService callbacks = Executors.newCachedThreadPool(DaemonThreads.named("seatlock-callback"));

    /** Threads for one lock; {@link #shutdown()} them with it. */
    public CallbackThreads() {
    }

    /**
     * Runs a lost-lease callback on a thread of its own, guarded; nothing if the lock has closed.
     *
     * @param callback the user's callback
     * @param lockName the lock's name, for the log
     */
    public void run(Runnable callback, String lockName) {
        try {
            callbacks.execute(() -> Callbacks.runGuarded(callback, "lost-lease callback of '" + lockName + "'"));
        } catch (RejectedExecutionException e) {
            LOG.log(System.Logger.Level.DEBUG, "lock closed; lost-lease callback of '" + lockName + "' not run");
        }
    }

    /**
     * A future completed when {@code heard} is, on a callback thread, so that what a caller chains on it runs there,
     * not on the store's thread that completes {@code heard}. Cancelling it cancels {@code heard}; it is cancelled if
     * {@code heard} is, or if the lock closes before it could be told.
     *
     * @param heard completed by the store's release hint
     * @return the future to hand the caller
     */
    public CompletableFuture<Void> relay(CompletableFuture<Void> heard) {
        CompletableFuture<Void> told = new CompletableFuture<>();
        told.whenComplete((done, error) -> {
            if (told.isCancelled()) {
                heard.cancel(false);
            }
        });
        heard.whenComplete((done, error) -> {
            if (error != null) { // only cancelled: the lock closed, or the caller cancelled told
                told.cancel(false);
                return;
            }
            try {
                callbacks.execute(() -> told.complete(null));
            } catch (RejectedExecutionException e) { // the lock closed meanwhile
                told.cancel(false);
            }
        });
        return told;
    }

    /** Stops taking callbacks; those running finish. */
    public void shutdown() {
        callbacks.shutdown();
    }
}
