package io.seatlock.lock.jdbc.internal;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** The hints handed out per name and not yet completed; a hint cancelled by its waiter is forgotten. */
public final class ReleaseWaiters {

    private final Map<String, Set<CompletableFuture<Void>>> waiting = new ConcurrentHashMap<>();

    /**
     * A new hint for {@code name}.
     *
     * @param name the lock's name
     * @return completes at the next {@link #wake} of {@code name} or {@link #wakeAll}
     */
    public CompletableFuture<Void> next(String name) {
        CompletableFuture<Void> released = new CompletableFuture<>();
        waiting.computeIfAbsent(name, n -> ConcurrentHashMap.newKeySet()).add(released);
        released.whenComplete((done, error) -> waiting.computeIfPresent(name, (n, futures) -> {
            futures.remove(released);
            return futures.isEmpty() ? null : futures;
        }));
        return released;
    }

    /**
     * Completes every hint of {@code name}.
     *
     * @param name the lock's name
     */
    public void wake(String name) {
        Set<CompletableFuture<Void>> futures = waiting.remove(name);
        if (futures != null) {
            futures.forEach(f -> f.complete(null));
        }
    }

    /** Completes every hint: whatever was announced while nobody listened is lost, so every waiter looks again. */
    public void wakeAll() {
        waiting.keySet().forEach(this::wake);
    }

    /** Cancels every hint. */
    public void cancelAll() {
        waiting.values().forEach(futures -> futures.forEach(f -> f.cancel(false)));
        waiting.clear();
    }
}
