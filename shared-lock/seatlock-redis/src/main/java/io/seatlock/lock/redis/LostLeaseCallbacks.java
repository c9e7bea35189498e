package io.seatlock.lock.redis;

import io.seatlock.lock.spi.Callbacks;
import io.seatlock.lock.spi.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * Runs lost-lease callbacks, each on a thread of its own: never on the watchdog, a Redis I/O thread or under a lock.
 * One that throws, even an {@link Error}, is logged and changes nothing ({@link Callbacks}).
 */
final class LostLeaseCallbacks {

    private static final Logger log = LoggerFactory.getLogger(LostLeaseCallbacks.class);

    /** Starts no thread before its first callback. */
    private final ExecutorService callbacks = Executors.newCachedThreadPool(DaemonThreads.named("seatlock-callback"));

    void run(Runnable callback, String lockName) {
        try {
            callbacks.execute(() -> Callbacks.runGuarded(callback, "lost-lease callback of '" + lockName + "'"));
        } catch (RejectedExecutionException e) {
            log.debug("client closed; lost-lease callback of '{}' not run", lockName);
        }
    }

    void shutdown() {
        callbacks.shutdown();
    }
}
