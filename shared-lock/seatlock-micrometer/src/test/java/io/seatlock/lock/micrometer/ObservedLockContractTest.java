package io.seatlock.lock.micrometer;

import io.micrometer.observation.tck.TestObservationRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.test.DistributedLockContract;
import io.seatlock.test.InMemoryLock;
import io.seatlock.test.ManualClock;

import java.time.Duration;

/** The published contract holds for an observed lock: observing changes nothing a caller sees. */
class ObservedLockContractTest extends DistributedLockContract {

    private final ManualClock clock = new ManualClock();
    private final InMemoryLock lock = new InMemoryLock(clock, "a");
    private final LockObservations observations = new LockObservations(TestObservationRegistry.create());
    private final DistributedLock observed = observations.wrap(lock);
    private final DistributedLock other = observations.wrap(lock.replica("b"));

    @Override
    protected DistributedLock lock() {
        return observed;
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
