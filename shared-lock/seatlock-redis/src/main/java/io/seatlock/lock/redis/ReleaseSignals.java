package io.seatlock.lock.redis;

import io.seatlock.lock.redis.spi.RedisTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Tells waiters that a lock was released: one pattern subscription per client to every release channel under
 * its prefix ({@link RedisKeys#released}), made on the first wait. A release publishes only when a waiter
 * marked the lock, so a lock nobody waits for costs nothing. A hint, never a grant: a lost message or a
 * lease that simply expires leaves the waiter to its own polling.
 */
final class ReleaseSignals implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReleaseSignals.class);

    private final RedisTransport redis;
    private final RedisKeys keys;
    private final ConcurrentHashMap<String, Set<CompletableFuture<Void>>> waiting = new ConcurrentHashMap<>();
    private final AtomicReference<CompletableFuture<AutoCloseable>> subscription =
            new AtomicReference<>();
    private volatile boolean closed;
    private volatile long failedAt;
    private static final long RESUBSCRIBE_AFTER_NANOS = TimeUnit.SECONDS.toNanos(10);

    ReleaseSignals(RedisTransport redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /**
     * A future completed when {@code name} is next announced as released; it forgets itself once done or
     * cancelled. Completes on the transport's own thread.
     */
    CompletableFuture<Void> next(String name) {
        CompletableFuture<Void> released = new CompletableFuture<>();
        // added inside the map's compute: a set another waiter's cleanup has just emptied and dropped is never added to
        waiting.compute(name, (n, futures) -> {
            Set<CompletableFuture<Void>> into = futures != null ? futures : ConcurrentHashMap.newKeySet();
            into.add(released);
            return into;
        });
        released.whenComplete((done, error) -> waiting.computeIfPresent(name, (n, futures) -> {
            futures.remove(released);
            return futures.isEmpty() ? null : futures;
        }));
        return released;
    }

    /** Completes every waiter of {@code name} (a release was announced, or the lock turned out to be free). */
    void released(String name) {
        Set<CompletableFuture<Void>> futures = waiting.remove(name);
        if (futures != null) {
            futures.forEach(f -> f.complete(null));
        }
    }

    /**
     * Subscribed (true) or not (false); never waits. After a failed subscription (Redis down, an ACL without the
     * channels) the next try comes only after a pause, so waiters never storm Redis with connections.
     */
    CompletableFuture<Boolean> subscribed() {
        CompletableFuture<AutoCloseable> current = subscription.get();
        if (current == null || current.isCompletedExceptionally() && System.nanoTime() - failedAt > RESUBSCRIBE_AFTER_NANOS) {
            CompletableFuture<AutoCloseable> fresh = new CompletableFuture<>();
            if (subscription.compareAndSet(current, fresh)) {
                subscribe(fresh);
            }
            current = subscription.get();
        }
        return current.handle((connection, error) -> error == null);
    }

    private void subscribe(CompletableFuture<AutoCloseable> into) {
        redis.subscribe(keys.releasedPattern(), channel -> {
            String name = keys.nameOfReleased(channel);
            if (name != null) {
                released(name);
            }
        }).whenComplete((subscription, error) -> {
            if (error != null) {
                failedAt = System.nanoTime();
                log.warn("no subscription to lock releases ({}); waiters poll, and it is tried again in {} s",
                        error.getMessage(), TimeUnit.NANOSECONDS.toSeconds(RESUBSCRIBE_AFTER_NANOS));
                into.completeExceptionally(error);
            } else if (closed) {
                closeQuietly(subscription);
                into.completeExceptionally(new IllegalStateException("closed"));
            } else {
                into.complete(subscription);
            }
        });
    }

    private static void closeQuietly(AutoCloseable subscription) {
        try {
            subscription.close();
        } catch (Exception e) {
            log.debug("could not close the release subscription", e);
        }
    }

    @Override
    public void close() {
        closed = true;
        CompletableFuture<AutoCloseable> current = subscription.get();
        if (current != null) {
            current.thenAccept(ReleaseSignals::closeQuietly);
        }
        waiting.values().forEach(futures -> futures.forEach(f -> f.cancel(false)));
        waiting.clear();
    }
}
