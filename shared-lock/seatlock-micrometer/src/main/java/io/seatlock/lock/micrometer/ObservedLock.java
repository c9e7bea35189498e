package io.seatlock.lock.micrometer;

import io.micrometer.observation.Observation;
import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A lock whose acquires and leases are observed ({@link LockObservations}); every other call goes straight to the
 * lock. With a registry that has no handler, it adds one check per call.
 *
 * @param lock         the lock observed
 * @param observations where its acquires and leases are observed
 */
record ObservedLock(DistributedLock lock, LockObservations observations) implements DistributedLock {

    @Override
    public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
        if (observations.registry().isNoop()) {
            return lock.tryAcquire(name, ttl, impact);
        }
        Observation acquire = observations.acquire(name, impact, "try").start();
        try (Observation.Scope ignored = acquire.openScope()) {
            Optional<LockLease> lease = lock.tryAcquire(name, ttl, impact);
            LockObservations.outcome(acquire, lease.isPresent() ? "acquired" : refusal());
            return lease.map(granted -> observe(granted, name));
        } catch (RuntimeException e) {
            throw failed(acquire, e);
        } finally {
            acquire.stop();
        }
    }

    @Override
    public AcquireAttempt tryAcquireUnlessDecided(String name, Duration ttl, OverlapImpact impact) {
        if (observations.registry().isNoop()) {
            return lock.tryAcquireUnlessDecided(name, ttl, impact);
        }
        Observation acquire = observations.acquire(name, impact, "unless-decided").start();
        try (Observation.Scope ignored = acquire.openScope()) {
            AcquireAttempt attempt = lock.tryAcquireUnlessDecided(name, ttl, impact);
            if (attempt.lease().isPresent()) {
                LockObservations.outcome(acquire, "acquired");
                return AcquireAttempt.acquired(observe(attempt.lease().get(), name));
            }
            LockObservations.outcome(acquire, attempt.isDecided() ? "decided" : refusal());
            return attempt;
        } catch (RuntimeException e) {
            throw failed(acquire, e);
        } finally {
            acquire.stop();
        }
    }

    @Override
    public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException {
        return waited(name, impact, () -> lock.acquire(name, ttl, impact, maxWait));
    }

    /** Observed as {@link #acquire} is: the same observation, the wait in order of arrival inside it. */
    @Override
    public LockLease acquireInOrder(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException {
        return waited(name, impact, () -> lock.acquireInOrder(name, ttl, impact, maxWait));
    }

    /** A wait of the lock's. */
    @FunctionalInterface
    private interface Wait {
        LockLease lease() throws InterruptedException;
    }

    private LockLease waited(String name, OverlapImpact impact, Wait wait) throws InterruptedException {
        if (observations.registry().isNoop()) {
            return wait.lease();
        }
        Observation acquire = observations.acquire(name, impact, "wait").start();
        try (Observation.Scope ignored = acquire.openScope()) {
            LockLease lease = wait.lease();
            observations.tookLateGrant(); // an attempt's late grant before this one's success: no longer news
            LockObservations.outcome(acquire, "acquired");
            return observe(lease, name);
        } catch (InterruptedException e) {
            LockObservations.outcome(acquire, "interrupted");
            throw e;
        } catch (RuntimeException e) {
            throw failed(acquire, e);
        } finally {
            acquire.stop();
        }
    }

    /** Busy, or granted too late (taken back): the lock's listener said which, on this thread. */
    private String refusal() {
        return observations.tookLateGrant() ? "late" : "busy";
    }

    private RuntimeException failed(Observation acquire, RuntimeException e) {
        observations.tookLateGrant();
        LockObservations.outcome(acquire, e instanceof LockUnavailableException ? "unavailable"
                : e instanceof LockNotAcquiredException ? "not-acquired" : "error");
        if (!(e instanceof LockNotAcquiredException)) {
            acquire.error(e);
        }
        return e;
    }

    private LockLease observe(LockLease lease, String name) {
        Observation held = observations.lease(name, lease).start();
        return new ObservedLease(lease, held);
    }

    @Override
    public CompletableFuture<Void> whenReleased(String name) {
        return lock.whenReleased(name);
    }

    @Override
    public void awaitRelease(String name, Duration atMost) throws InterruptedException {
        lock.awaitRelease(name, atMost);
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

    @Override
    public String toString() {
        return "Observed" + lock;
    }
}
