package io.seatlock.lock.spi;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** For implementations: the bounded wait of {@link io.seatlock.lock.DistributedLock#awaitRelease} on a release hint. */
public final class ReleaseHints {

    private ReleaseHints() {
    }

    /**
     * Waits until {@code released} completes or {@code atMost} passes, whichever comes first, then cancels it, so the
     * implementation forgets a waiter that stopped waiting. No word in time is no error: the caller polls, as it would
     * without a hint.
     *
     * @param released the hint
     * @param atMost   the longest wait
     * @throws InterruptedException if the waiting thread was interrupted
     */
    public static void await(CompletableFuture<Void> released, Duration atMost) throws InterruptedException {
        try {
            released.get(atMost.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException | CancellationException e) {
            // no word in time
        } finally {
            released.cancel(false);
        }
    }
}
