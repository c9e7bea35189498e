package io.seatlock.test;

import io.seatlock.lock.FencingToken;
import io.seatlock.lock.spi.LockSpec;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/** The shared state of every replica; its monitor guards everything and is never held around callbacks. */
final class InMemoryStore {

    record Entry(String owner, String instanceId, long expiresAt) {
    }

    record Grant(InMemoryLock.@Nullable Lease lease, @Nullable Duration busyFor, boolean decided) {
    }

    final ManualClock clock;
    final Map<String, Entry> locks = new HashMap<>();
    final Map<String, Long> lastToken = new HashMap<>();
    final Map<String, Long> decidedUntil = new HashMap<>();
    final List<InMemoryLock.Lease> keptAlive = new ArrayList<>();
    /** Waiters told when a lock is released ({@link #whenReleased}); completed outside the monitor. */
    final Map<String, List<CompletableFuture<Void>>> releaseWaiters = new HashMap<>();
    /** The waiters of {@link InMemoryLock#acquireInOrder}, per name, first to arrive first. */
    final Map<String, java.util.ArrayDeque<Object>> lines = new HashMap<>();

    InMemoryStore(ManualClock clock) {
        this.clock = clock;
    }

    /** The entry of a lock still within its ttl; an expired one is removed. */
    @Nullable Entry live(String name) {
        Entry entry = locks.get(name);
        if (entry != null && entry.expiresAt() - clock.nanos() <= 0) {
            locks.remove(name);
            return null;
        }
        return entry;
    }

    synchronized Grant grant(LockSpec spec, String instanceId, boolean unlessDecided) {
        long now = clock.nanos();
        if (unlessDecided) {
            Long until = decidedUntil.get(spec.name());
            if (until != null && until - now > 0) {
                return new Grant(null, null, true);
            }
        }
        Entry holder = live(spec.name());
        if (holder != null) {
            return new Grant(null, Duration.ofNanos(holder.expiresAt() - now), false);
        }
        long token = lastToken.merge(spec.name(), 1L, Long::sum);
        String owner = UUID.randomUUID() + "@" + instanceId;
        locks.put(spec.name(), new Entry(owner, instanceId, now + spec.ttl().toNanos()));
        return new Grant(new InMemoryLock.Lease(this, spec, owner, new FencingToken(token), now), null, false);
    }

    /** Runs on every clock advance: renews kept-alive leases still held, and tells the others they are lost. */
    void tick() {
        List<InMemoryLock.Lease> lost = new ArrayList<>();
        synchronized (this) {
            for (InMemoryLock.Lease lease : List.copyOf(keptAlive)) {
                if (lease.state != InMemoryLock.State.HELD) {
                    keptAlive.remove(lease);
                    continue;
                }
                Entry entry = locks.get(lease.name());
                if (entry != null && entry.owner.equals(lease.ownerToken())) {
                    // the watchdog renewed at each third of the ttl while time passed
                    long renewedTo = clock.nanos() + lease.ttlNanos();
                    locks.put(lease.name(), new Entry(entry.owner, entry.instanceId(), renewedTo));
                    lease.deadline = renewedTo;
                } else {
                    lease.state = InMemoryLock.State.LOST;
                    keptAlive.remove(lease);
                    lost.add(lease);
                }
            }
            notifyAll();
        }
        lost.forEach(InMemoryLock.Lease::runLostCallback); // never under the store's monitor
    }
}

