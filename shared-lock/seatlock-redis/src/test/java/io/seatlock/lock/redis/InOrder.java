package io.seatlock.lock.redis;

import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** A lock whose blocking {@code acquire} is its {@code acquireInOrder}, for the suites written against {@code acquire}. */
record InOrder(DistributedLock lock) implements DistributedLock {

    @Override
    public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
        return lock.tryAcquire(name, ttl, impact);
    }

    @Override
    public AcquireAttempt tryAcquireUnlessDecided(String name, Duration ttl, OverlapImpact impact) {
        return lock.tryAcquireUnlessDecided(name, ttl, impact);
    }

    @Override
    public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException {
        return lock.acquireInOrder(name, ttl, impact, maxWait);
    }

    @Override
    public CompletableFuture<Void> whenReleased(String name) {
        return lock.whenReleased(name);
    }

    @Override
    public Optional<Duration> remainingTtl(String name) {
        return lock.remainingTtl(name);
    }

    @Override
    public Optional<String> holder(String name) {
        return lock.holder(name);
    }

    @Override
    public Set<String> heldNames(String namePrefix) {
        return lock.heldNames(namePrefix);
    }

    @Override
    public Set<String> held(Collection<String> names) {
        return lock.held(names);
    }
}
