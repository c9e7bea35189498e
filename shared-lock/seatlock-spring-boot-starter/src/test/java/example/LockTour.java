package example;

import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.TaskResult;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.seatlock.lock.OverlapImpact.BROKEN_PROMISE;
import static io.seatlock.lock.OverlapImpact.WASTED_WORK;

/** The lock API call by call, as docs/concepts.md shows it; {@code ExampleLockTourTest} runs it on a real lock. */
final class LockTour {

    private LockTour() {
    }

    static String tour(DistributedLock lock) throws InterruptedException {
        Duration ttl = Duration.ofSeconds(10);
// tag::lock-tour[]
        // try once: a busy lock is an empty answer, not an exception
        Optional<LockLease> held = lock.tryAcquire("seat:concert:14C", ttl, BROKEN_PROMISE);
        if (held.isPresent()) {
            try (LockLease lease = held.get()) { // closing releases by owner: never another holder's lock
                lease.fencingToken();            // larger than every earlier grant's of this name: give it to the write
                lease.isValid();                 // the local deadline (start + ttl - safety margin), no round trip
            }
        }
        // wait, bounded and interruptible; a waiter is woken by the holder's release, not only by its back-off
        try (LockLease migration = lock.acquire("migration", ttl, WASTED_WORK, Duration.ofSeconds(5))) {
            migration.keepAlive(() -> { /* lost: stop the work; runs before the local deadline */ });
        }
        // renewed while it runs; the task's thread is interrupted, and LockLostException thrown, if the lease is lost
        TaskResult<String> rebuilt = lock.executeLocked("cache:catalog", ttl, WASTED_WORK, lease -> "rebuilt");
        rebuilt.wasExecuted();                   // false: another replica held it
        Set<String> busySeats = lock.held(List.of("seat:concert:14C", "seat:concert:14D")); // for a status display
        lock.remainingTtl("seat:concert:14C");   // the holder's time left, as the store counts it

        // work that, once done, is done for good (a sold seat): decided, busy (and for how long) or ours, in one call
        AcquireAttempt attempt = lock.tryAcquireUnlessDecided("seat:concert:14D", ttl, BROKEN_PROMISE);
        if (attempt.lease().isPresent()) {
            // ... the write commits, then: release and leave the decided marker, in one round trip
            attempt.lease().get().releaseDecided(Duration.ofDays(30));
        } else if (!attempt.isDecided()) {
            attempt.busyFor();                   // someone is at it: try again after this
        }
// end::lock-tour[]
        return rebuilt.result() + " " + busySeats.size();
    }
}
