package io.seatlock.lock.redis;

import io.seatlock.lock.spi.Callbacks;
import io.seatlock.lock.spi.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * Where the user's code runs: lost-lease callbacks, each on a thread of its own, and what a caller chains on
 * {@code whenReleased}; never on the watchdog, a Redis I/O thread or under a lock. A lost-lease callback that throws,
 * even an {@link Error}, is logged and changes nothing ({@link Callbacks}).
 */
final class CallbackThreads {

    private static final Logger log = LoggerFactory.getLogger(CallbackThreads.class);

    /** Starts no thread before its first callback. */
    private final ExecutorService callbacks = Executors.newCachedThreadPool(DaemonThreads.named("seatlock-callback"));

    void run(Runnable callback, String lockName) {
        try {
            callbacks.execute(() -> Callbacks.runGuarded(callback, "lost-lease callback of '" + lockName + "'"));
        } catch (RejectedExecutionException e) {
            log.debug("client closed; lost-lease callback of '{}' not run", lockName);
        }
    }

    /**
     * A future completed when {@code heard} is, on a callback thread, so that what a caller chains on it runs there,
     * not on the Redis thread that completes {@code heard}. Cancelling it cancels {@code heard}.
     */
    CompletableFuture<Void> relay(CompletableFuture<Void> heard) {
        CompletableFuture<Void> told = new CompletableFuture<>();
        told.whenComplete((done, error) -> {
            if (told.isCancelled()) {
                heard.cancel(false);
            }
        });
        heard.whenComplete((done, error) -> {
            if (error != null) { // only cancelled: the client closed, or the caller cancelled told
                told.cancel(false);
                return;
            }
            try {
                callbacks.execute(() -> told.complete(null));
            } catch (RejectedExecutionException e) { // the client closed meanwhile
                told.cancel(false);
            }
        });
        return told;
    }

    void shutdown() {
        callbacks.shutdown();
    }
}
