package io.seatlock.test;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** The published contract, on the in-memory lock and its manual clock. */
// tag::contract[]
class InMemoryLockContractTest extends DistributedLockContract {

    private final ManualClock clock = new ManualClock();
    private final InMemoryLock lock = new InMemoryLock(clock, "a");
    private final InMemoryLock other = lock.replica("b");

    @Override
    protected DistributedLock lock() {
        return lock;
    }

    @Override
    protected DistributedLock otherReplica() {
        return other;
    }

    @Override
    protected void passTime(Duration time) {
        clock.advance(time);
    }

    @Override
    protected void takeAway(String name) {
        lock.takeAway(name);
    }
// end::contract[]

    /** Beyond the contract: the in-memory lock tells waiters of a release, as the Redis lock does, and only then. */
    @Test
    void whenReleasedCompletesOnTheHoldersReleaseAndNotOnAnExpiry() {
        LockLease held = lock.tryAcquire("hinted", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK).orElseThrow();
        CompletableFuture<Void> released = other.whenReleased("hinted");
        assertThat(released).isNotDone();
        held.release();
        assertThat(released).isCompleted();
        assertThat(other.whenReleased("hinted")).as("a free lock").isCompleted();

        lock.tryAcquire("expiring", Duration.ofSeconds(1), OverlapImpact.WASTED_WORK).orElseThrow();
        CompletableFuture<Void> expired = other.whenReleased("expiring");
        clock.advance(Duration.ofSeconds(2));
        assertThat(expired).as("an expiry sends no word").isNotDone();
        expired.cancel(false);
    }
}
