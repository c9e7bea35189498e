package io.seatlock.test;

import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.OverlapImpact;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The in-memory lock's line: replicas' waiters get the lock in order of arrival; one that gives up leaves it. */
class InMemoryLockInOrderTest {

    private static final Duration LONG = Duration.ofSeconds(30);
    private final InMemoryLock lock = new InMemoryLock(new ManualClock(), "holder");

    @Test
    void waitersOfTheReplicasGetTheLockInTheirOrderOfArrivalAndOneThatGivesUpLeaves() throws Exception {
        LockLease held = lock.tryAcquire("line", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow();
        assertThatThrownBy(() -> lock.replica("impatient").acquireInOrder("line", LONG, OverlapImpact.BROKEN_PROMISE,
                Duration.ofMillis(100))).isInstanceOf(LockNotAcquiredException.class);
        List<Integer> granted = new CopyOnWriteArrayList<>();
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int arrival = i;
            InMemoryLock replica = lock.replica("r" + (i % 2));
            Thread waiter = new Thread(() -> {
                try {
                    LockLease lease = replica.acquireInOrder("line", LONG, OverlapImpact.BROKEN_PROMISE, LONG);
                    granted.add(arrival);
                    lease.release();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            waiters.add(waiter);
            waiter.start();
            // in line, waiting on the store, before the next one comes
            await().atMost(Duration.ofSeconds(10)).until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
        }
        held.release();
        for (Thread waiter : waiters) {
            waiter.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(granted).containsExactly(0, 1, 2, 3);
    }
}
