package io.seatlock.lock.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** For implementations: the bounded wait of {@link io.seatlock.lock.DistributedLock#awaitRelease} on a release hint. */
public final class ReleaseHints {

    private ReleaseHints() {
    }

    /**
     * Checks {@code atMost}, then asks for the hint and waits until it completes or {@code atMost} passes, whichever
     * comes first, then cancels it, so the implementation forgets a waiter that stopped waiting. No word in time is no
     * error: the caller polls, as it would without a hint. A bad bound asks for no hint (which may mark the lock).
     *
     * @param hint   asks for the hint, e.g. {@code () -> whenReleased(name)}
     * @param atMost the longest wait, not negative
     * @throws NullPointerException     if {@code atMost} is null
     * @throws IllegalArgumentException if {@code atMost} is negative
     * @throws InterruptedException     if the waiting thread was interrupted
     */
    public static void await(Supplier<CompletableFuture<Void>> hint, Duration atMost) throws InterruptedException {
        Objects.requireNonNull(atMost, "atMost");
        if (atMost.isNegative()) {
            throw new IllegalArgumentException("atMost must not be negative, was " + atMost);
        }
        CompletableFuture<Void> released = hint.get();
        try {
            released.get(Durations.waitNanos(atMost), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException | CancellationException e) {
            // no word in time
        } finally {
            released.cancel(false);
        }
    }
}
