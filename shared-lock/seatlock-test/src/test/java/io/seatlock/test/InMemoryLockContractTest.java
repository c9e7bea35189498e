package io.seatlock.test;

import io.seatlock.lock.DistributedLock;

import java.time.Duration;

/** The published contract, on the in-memory lock and its manual clock. */
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
}
