package io.seatlock.test;

import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.lock.spi.GrantedLease;
import io.seatlock.lock.spi.LockSpec;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A {@link DistributedLock} in memory, on a {@link ManualClock}, for unit tests that should see every edge
 * without Redis: leases expire when the clock passes their ttl, kept-alive leases are renewed as the clock
 * advances, a lock taken away ({@link #takeAway}) makes its holder's renewal find it lost and run the
 * lost-lease callback, busy answers carry the holder's time left, fencing tokens only grow, and decided
 * markers turn later callers away. It passes the same {@link DistributedLockContract} as the Redis lock.
 *
 * <p>Replicas share one store: {@link #replica(String)} is another process's view of the same locks.
 */
public final class InMemoryLock implements DistributedLock {

    private static final System.Logger LOST_CALLBACK_LOG = System.getLogger(InMemoryLock.class.getName());

    private final InMemoryStore store;
    private final String instanceId;

    /**
     * A lock with a store of its own.
     *
     * @param clock      the clock its leases live on
     * @param instanceId this replica's name in owner tokens
     */
    public InMemoryLock(ManualClock clock, String instanceId) {
        this(new InMemoryStore(clock), instanceId);
        clock.onAdvance(store::tick);
    }

    private InMemoryLock(InMemoryStore store, String instanceId) {
        this.store = store;
        this.instanceId = instanceId;
    }

    /**
     * Another replica on the same store.
     *
     * @param otherInstanceId the other replica's name
     * @return its lock
     */
    public InMemoryLock replica(String otherInstanceId) {
        return new InMemoryLock(store, otherInstanceId);
    }

    /**
     * Makes the lock vanish behind its holder's back, as a Redis that lost the key would; a kept-alive
     * holder finds out at its next renewal (the next {@link ManualClock#advance}).
     *
     * @param name the lock's name
     */
    public void takeAway(String name) {
        synchronized (store) {
            store.locks.remove(name);
            store.notifyAll();
        }
    }

    @Override
    public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
        return Optional.ofNullable(store.grant(new LockSpec(name, ttl, impact), instanceId, false).lease());
    }

    @Override
    public AcquireAttempt tryAcquireUnlessDecided(String name, Duration ttl, OverlapImpact impact) {
        InMemoryStore.Grant grant = store.grant(new LockSpec(name, ttl, impact), instanceId, true);
        if (grant.decided()) {
            return AcquireAttempt.alreadyDecided();
        }
        return grant.lease() != null ? AcquireAttempt.acquired(grant.lease()) : AcquireAttempt.busy(grant.busyFor());
    }

    @Override
    public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException {
        return waitFor(new LockSpec(name, ttl, impact), maxWait, () -> true);
    }

    /**
     * As {@link #acquire}, in order of arrival over every replica of this store: a line per name, kept in memory; a
     * waiter that gives up leaves it.
     */
    @Override
    public LockLease acquireInOrder(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException {
        LockSpec spec = new LockSpec(name, ttl, impact);
        Object me = new Object();
        synchronized (store) {
            store.lines.computeIfAbsent(name, n -> new ArrayDeque<>()).addLast(me);
        }
        try {
            return waitFor(spec, maxWait, () -> store.lines.get(name).peekFirst() == me);
        } finally {
            synchronized (store) {
                ArrayDeque<Object> line = store.lines.get(name);
                line.remove(me);
                if (line.isEmpty()) {
                    store.lines.remove(name);
                }
                store.notifyAll(); // the next in line may be first now
            }
        }
    }

    /** Whether this waiter may try now (under the store's monitor). */
    @FunctionalInterface
    private interface Turn {
        boolean mine();
    }

    private LockLease waitFor(LockSpec spec, Duration maxWait, Turn turn) throws InterruptedException {
        String name = spec.name();
        long waitNanos = LockSpec.requireValidWait(maxWait);
        // Waits until released, or until maxWait passes on the manual clock or in real time, whichever is first.
        long clockDeadline = store.clock.nanos() + waitNanos;
        long realDeadline = System.nanoTime() + waitNanos;
        synchronized (store) {
            while (true) {
                InMemoryStore.Grant grant = turn.mine() ? store.grant(spec, instanceId, false) : null;
                if (grant != null && grant.lease() != null) {
                    return grant.lease();
                }
                long realLeft = realDeadline - System.nanoTime();
                if (store.clock.nanos() - clockDeadline >= 0 || realLeft <= 0) {
                    throw new LockNotAcquiredException("lock '" + name + "' was still held by another owner after "
                            + maxWait);
                }
                TimeUnit.NANOSECONDS.timedWait(store, Math.min(realLeft, TimeUnit.MILLISECONDS.toNanos(50)));
            }
        }
    }

    /** Completes when the holder releases {@code name} (at once if it is free); never on an expiry. */
    @Override
    public CompletableFuture<Void> whenReleased(String name) {
        LockSpec.requireValidName(name);
        CompletableFuture<Void> released = new CompletableFuture<>();
        synchronized (store) {
            if (store.live(name) == null) {
                released.complete(null);
                return released;
            }
            store.releaseWaiters.computeIfAbsent(name, n -> new ArrayList<>()).add(released);
        }
        released.whenComplete((done, error) -> {
            synchronized (store) {
                List<CompletableFuture<Void>> waiters = store.releaseWaiters.get(name);
                if (waiters != null && waiters.remove(released) && waiters.isEmpty()) {
                    store.releaseWaiters.remove(name);
                }
            }
        });
        return released;
    }

    @Override
    public Optional<Duration> remainingTtl(String name) {
        LockSpec.requireValidName(name);
        synchronized (store) {
            InMemoryStore.Entry entry = store.live(name);
            return entry == null ? Optional.empty() : Optional.of(Duration.ofNanos(entry.expiresAt() - store.clock.nanos()));
        }
    }

    @Override
    public Optional<String> holder(String name) {
        LockSpec.requireValidName(name);
        synchronized (store) {
            InMemoryStore.Entry entry = store.live(name);
            return entry == null ? Optional.empty() : Optional.of(entry.instanceId());
        }
    }

    @Override
    public Set<String> heldNames(String namePrefix) {
        LockSpec.requireValidNamePrefix(namePrefix);
        synchronized (store) {
            Set<String> names = new HashSet<>();
            for (String name : new ArrayList<>(store.locks.keySet())) {
                if (name.startsWith(namePrefix) && store.live(name) != null) {
                    names.add(name);
                }
            }
            return names;
        }
    }

    @Override
    public Set<String> held(Collection<String> names) {
        List<String> asked = List.copyOf(names);
        asked.forEach(LockSpec::requireValidName);
        synchronized (store) {
            Set<String> held = new HashSet<>();
            for (String name : asked) {
                if (store.live(name) != null) {
                    held.add(name);
                }
            }
            return held;
        }
    }

    enum State { HELD, RELEASED, LOST }

    static final class Lease extends GrantedLease {
        private final InMemoryStore store;
        volatile long deadline;
        volatile State state = State.HELD;
        private volatile @Nullable Runnable onLost;

        Lease(InMemoryStore store, LockSpec spec, String owner, FencingToken token, long start) {
            super(spec, owner, token);
            this.store = store;
            this.deadline = start + spec().ttl().toNanos();
        }

        long ttlNanos() {
            return spec().ttl().toNanos();
        }

        @Override
        public boolean isValid() {
            return state == State.HELD && deadline - store.clock.nanos() > 0;
        }

        @Override
        public Duration validFor() {
            return isValid() ? Duration.ofNanos(deadline - store.clock.nanos()) : Duration.ZERO;
        }

        @Override
        public boolean renew(Duration ttl) {
            LockSpec.requireValidTtl(ttl);
            if (state == State.RELEASED) {
                throw new IllegalStateException("lease on '" + spec().name() + "' was released; acquire the lock again");
            }
            synchronized (store) {
                InMemoryStore.Entry entry = store.live(spec().name());
                if (state == State.HELD && entry != null && entry.owner().equals(ownerToken())) {
                    long now = store.clock.nanos();
                    store.locks.put(spec().name(), new InMemoryStore.Entry(ownerToken(), entry.instanceId(), now + ttl.toNanos()));
                    deadline = now + ttl.toNanos();
                    return true;
                }
                state = State.LOST;
                return false;
            }
        }

        @Override
        public LockLease keepAlive(Runnable callback) {
            Objects.requireNonNull(callback, "onLost callback must not be null");
            synchronized (store) {
                if (state != State.HELD) {
                    throw new IllegalStateException("lease on '" + spec().name() + "' is " + state.name().toLowerCase());
                }
                if (onLost != null) {
                    throw new IllegalStateException("lease on '" + spec().name() + "' is already kept alive");
                }
                onLost = callback;
                store.keptAlive.add(this);
            }
            return this;
        }

        /**
         * A lost-lease callback that throws changes nothing, as on every store: what it threw is logged and the
         * lease is lost all the same (an {@link Error} other than the JVM's own is ignored too).
         */
        private static void runGuarded(Runnable callback, String name) {
            try {
                callback.run();
            } catch (RuntimeException | Error e) {
                if (e instanceof VirtualMachineError fatal) {
                    throw fatal;
                }
                LOST_CALLBACK_LOG.log(System.Logger.Level.WARNING, "lost-lease callback of '" + name + "' failed; ignored", e);
            }
        }

        void runLostCallback() {
            Runnable callback = onLost;
            if (callback != null) {
                runGuarded(callback, spec().name());
            }
        }

        @Override
        public boolean isKeptAlive() {
            return onLost != null && state == State.HELD;
        }

        @Override
        public boolean isLost() {
            return state == State.LOST;
        }

        @Override
        public ReleaseOutcome release() {
            return end(null, null);
        }

        @Override
        public ReleaseOutcome releaseDecided(Duration keepMarkerFor) {
            return end(null, LockSpec.requireValidMarkerTime(keepMarkerFor));
        }

        @Override
        public ReleaseOutcome releaseAfter(Duration keepFor) {
            LockSpec.requireValidStandingTime(keepFor);
            return end(keepFor == null || keepFor.toMillis() < 1 ? null : keepFor, null);
        }

        private ReleaseOutcome end(@Nullable Duration keepFor, @Nullable Duration decidedFor) {
            List<CompletableFuture<Void>> toTell = List.of();
            ReleaseOutcome outcome;
            synchronized (store) {
                State before = state;
                if (before == State.RELEASED) {
                    return ReleaseOutcome.ALREADY_RELEASED;
                }
                state = State.RELEASED;
                store.keptAlive.remove(this);
                long now = store.clock.nanos();
                if (decidedFor != null) {
                    store.decidedUntil.put(spec().name(), now + decidedFor.toNanos());
                }
                InMemoryStore.Entry entry = store.live(spec().name());
                boolean ours = entry != null && entry.owner().equals(ownerToken());
                if (ours) {
                    if (keepFor != null) {
                        store.locks.put(spec().name(), new InMemoryStore.Entry(ownerToken(), entry.instanceId(), now + keepFor.toNanos()));
                    } else {
                        store.locks.remove(spec().name());
                        List<CompletableFuture<Void>> waiters = store.releaseWaiters.remove(spec().name());
                        toTell = waiters == null ? List.of() : waiters;
                    }
                    store.notifyAll();
                }
                outcome = before == State.LOST || !ours ? ReleaseOutcome.LOST : ReleaseOutcome.RELEASED;
            }
            toTell.forEach(waiter -> waiter.complete(null)); // their callbacks run outside the store's monitor
            return outcome;
        }

        @Override
        public void close() {
            release();
        }

        @Override
        public String toString() {
            return "LockLease[" + spec().name() + ", token " + fencingToken() + ", " + state.name().toLowerCase() + "]";
        }
    }
}
