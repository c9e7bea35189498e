package io.seatlock.lock.leader;

import io.seatlock.lock.internal.Callbacks;
import io.seatlock.lock.internal.DaemonThreads;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An election's callbacks, run in order on one thread of their own, never on the campaign's or under a lock of the
 * election; what one throws is logged and changes nothing.
 */
final class LeadershipCallbacks {

    private static final Logger log = LoggerFactory.getLogger(LeadershipCallbacks.class);

    private final String group;
    private final ExecutorService notifier;
    /** The notifier's one thread: a yield made from a callback must not wait for that callback. */
    private volatile @Nullable Thread callbackThread;

    LeadershipCallbacks(String group) {
        this.group = group;
        ThreadFactory named = DaemonThreads.named("leader-callbacks-" + group);
        this.notifier = Executors.newSingleThreadExecutor(task -> {
            Thread thread = named.newThread(task);
            callbackThread = thread;
            return thread;
        });
    }

    /** Queues {@code callback}; the future completes once it ran (at once if it was dropped: stopped). */
    Future<?> queue(Runnable callback) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            // execute, not submit: a FutureTask would swallow what the callback threw, unlogged
            notifier.execute(() -> {
                try {
                    Callbacks.runGuarded(callback, "leadership callback of " + group);
                } finally {
                    done.complete(null);
                }
            });
        } catch (RejectedExecutionException e) {
            log.debug("election {} closed; callback dropped", group);
            return CompletableFuture.completedFuture(null);
        }
        return done;
    }

    /** Waits for a queued callback, bounded; never from the callback thread itself (it would wait for itself). */
    void await(Future<?> callback, Duration atMost) {
        if (Thread.currentThread() == callbackThread) {
            return;
        }
        try {
            callback.get(Math.max(0, atMost.toNanos()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | CancellationException e) {
            // the callback's own failure is logged where it ran; the release goes ahead
        } catch (TimeoutException e) {
            log.warn("election {}: onRevoked still runs as the term's lease ends; releasing", group);
        }
    }

    /** Takes no more callbacks; the caller holds the election's term lock, so no revocation is lost in between. */
    void shutdown() {
        notifier.shutdown();
    }

    /** Lets the queued callbacks (the last revocation) run, at most five seconds. */
    void awaitQueued() {
        if (Thread.currentThread() == callbackThread) {
            return; // a callback that closed its lock: waiting would wait for itself
        }
        try {
            if (!notifier.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("election {}: a leadership callback still runs after close", group);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
