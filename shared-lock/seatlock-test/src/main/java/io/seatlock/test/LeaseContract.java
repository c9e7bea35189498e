package io.seatlock.test;

import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockLostException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.lock.TaskResult;
import io.seatlock.lock.spi.LockSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The half of {@link DistributedLockContract} that holds a lease to its term: renewal, keep-alive, the lost-lease
 * callback, decided markers, {@code executeLocked}, the longest ttl. Extend {@link DistributedLockContract}, which
 * runs these tests too, and supply what it names.
 */
public abstract class LeaseContract {

    private final String prefix = "contract-" + UUID.randomUUID().toString().substring(0, 8) + ":";

    /** For subclasses. */
    protected LeaseContract() {
    }

    /**
     * The lock under test.
     *
     * @return this replica's lock
     */
    protected abstract DistributedLock lock();

    /**
     * Another replica's lock on the same store, with another instance id.
     *
     * @return the other replica's lock
     */
    protected abstract DistributedLock otherReplica();

    /**
     * Lets {@code time} pass for the locks. A lock on real time, as every store's is, leaves it as it is: the tests
     * then wait for the effect, bounded. A lock on a manual clock advances the clock here, sleep-free.
     *
     * @param time how much time passes
     */
    protected void passTime(Duration time) {
    }

    /**
     * Removes the lock from the store behind its holder's back, as a store that lost it would.
     *
     * @param name the lock's name
     */
    protected abstract void takeAway(String name);

    /**
     * Whether the lock keeps "decided" markers ({@link LockLease#releaseDecided}); the interface's
     * default implementation does not.
     *
     * @return true if it does
     */
    protected boolean keepsDecidedMarkers() {
        return true;
    }

    /**
     * A lock name unique to this test class instance.
     *
     * @param base the readable part
     * @return the name
     */
    protected String name(String base) {
        return prefix + base;
    }

    /** The other replica's blocking acquire of {@code name} (a 30 s lease), waiting at most {@code maxWait}, begun now. */
    CompletableFuture<LockLease> otherReplicaAcquiring(String name, Duration maxWait) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return otherReplica().acquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK, maxWait);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    void letExpire(String name, Duration ttl) {
        passTime(ttl.plusMillis(1));
        await("lock '" + name + "' to expire").atMost(Pauses.DEFAULT_WAIT).pollInterval(Duration.ofMillis(10))
                .until(() -> lock().remainingTtl(name).isEmpty());
    }

    /**
     * A renewal resets the ttl of a lease still held.
     */
    @Test
    public void renewResetsTheTtlOfAHeldLease() {
        String name = name("renew");
        try (LockLease lease = lock().tryAcquire(name, Duration.ofSeconds(2), OverlapImpact.WASTED_WORK).orElseThrow()) {
            assertThat(lease.renew(Duration.ofSeconds(60))).isTrue();
            assertThat(lock().remainingTtl(name)).hasValueSatisfying(left ->
                    assertThat(left).isGreaterThan(Duration.ofSeconds(30)));
            assertThat(lease.validFor()).isGreaterThan(Duration.ofSeconds(30));
        }
    }

    /**
     * A kept-alive lease outlives its ttl, and hears when its lock is taken away.
     */
    @Test
    public void aKeptAliveLeaseOutlivesItsTtlAndHearsWhenItsLockIsTakenAway() {
        String name = name("kept");
        AtomicBoolean lost = new AtomicBoolean();
        LockLease lease = lock().tryAcquire(name, Duration.ofMillis(600), OverlapImpact.WASTED_WORK).orElseThrow()
                .keepAlive(() -> lost.set(true));
        assertThat(lease.isKeptAlive()).isTrue();
        passTime(Duration.ofMillis(1500));
        await().atMost(Pauses.DEFAULT_WAIT).until(() -> lease.isValid() && lock().remainingTtl(name).isPresent());
        assertThat(lost).isFalse();

        takeAway(name);
        passTime(Duration.ofMillis(300));
        await("the lost-lease callback").atMost(Pauses.DEFAULT_WAIT).untilTrue(lost);
        assertThat(lease.isLost()).isTrue();
        assertThat(lease.isValid()).isFalse();
    }

    /**
     * A lost-lease callback that throws, even an {@link Error}, changes nothing: another lease still hears its
     * own loss, and the lock name is free for the next holder.
     */
    @Test
    public void aLostLeaseCallbackThatThrowsChangesNothing() {
        String throwing = name("throwing-callback");
        String told = name("told-callback");
        AtomicBoolean heard = new AtomicBoolean();
        LockLease first = lock().tryAcquire(throwing, Duration.ofMillis(600), OverlapImpact.WASTED_WORK).orElseThrow()
                .keepAlive(() -> {
                    throw new AssertionError("a lost-lease callback's failure");
                });
        LockLease second = lock().tryAcquire(told, Duration.ofMillis(600), OverlapImpact.WASTED_WORK).orElseThrow()
                .keepAlive(() -> heard.set(true));

        takeAway(throwing);
        takeAway(told);
        passTime(Duration.ofMillis(300));
        await("the other lease's callback").atMost(Pauses.DEFAULT_WAIT).untilTrue(heard);
        await("the throwing lease's loss").atMost(Pauses.DEFAULT_WAIT).until(first::isLost);
        assertThat(second.isLost()).isTrue();
        try (LockLease next = otherReplica().tryAcquire(throwing, Duration.ofSeconds(5), OverlapImpact.WASTED_WORK)
                .orElseThrow()) {
            assertThat(next.isValid()).isTrue();
        }
    }

    /**
     * A decided marker turns later callers away without taking the lock.
     */
    @Test
    public void aDecidedMarkerTurnsLaterCallersAway() {
        if (!keepsDecidedMarkers()) {
            return;
        }
        String name = name("decided");
        LockLease lease = lock().tryAcquireUnlessDecided(name, Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE)
                .lease().orElseThrow();
        assertThat(lease.releaseDecided(Duration.ofMinutes(5))).isEqualTo(ReleaseOutcome.RELEASED);
        AcquireAttempt later = otherReplica().tryAcquireUnlessDecided(name, Duration.ofSeconds(30),
                OverlapImpact.BROKEN_PROMISE);
        assertThat(later.isDecided()).isTrue();
        assertThat(later.lease()).isEmpty();
        assertThat(lock().remainingTtl(name)).as("a decided lock is not taken").isEmpty();
    }

    /**
     * executeLocked runs the task only when the lock is free, and releases it after.
     */
    @Test
    public void executeLockedRunsOnlyWhenTheLockIsFree() {
        String name = name("task");
        TaskResult<String> ran = lock().executeLocked(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK,
                lease -> "done " + lease.fencingToken().value());
        assertThat(ran.wasExecuted()).isTrue();
        assertThat(ran.result()).startsWith("done ");
        try (LockLease held = otherReplica().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK)
                .orElseThrow()) {
            TaskResult<String> skipped = lock().executeLocked(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK,
                    lease -> "ran anyway");
            assertThat(skipped.wasExecuted()).isFalse();
            assertThat(held.isValid()).isTrue();
        }
        assertThat(lock().remainingTtl(name)).isEmpty();
    }

    /**
     * executeLocked interrupts a task whose lock is lost and throws LockLostException.
     *
     * @throws Exception if the test fails
     */
    @Test
    public void executeLockedInterruptsATaskWhoseLockIsLost() throws Exception {
        String name = name("lost-task");
        AtomicBoolean started = new AtomicBoolean();
        CompletableFuture<TaskResult<Void>> run = CompletableFuture.supplyAsync(() -> lock().executeLocked(name,
                Duration.ofMillis(900), OverlapImpact.WASTED_WORK, lease -> {
                    started.set(true);
                    TimeUnit.MINUTES.sleep(5); // the interrupt ends it
                    return null;
                }));
        await().atMost(Pauses.DEFAULT_WAIT).untilTrue(started);
        takeAway(name);
        passTime(Duration.ofMillis(400));
        assertThatThrownBy(() -> run.get(Pauses.DEFAULT_WAIT.toSeconds(), TimeUnit.SECONDS))
                .hasCauseInstanceOf(LockLostException.class);
    }

    /**
     * A lease cannot outlast the longest ttl by ending: a lock left standing after its lease
     * ({@link LockLease#releaseAfter}) or a decided marker ({@link LockLease#releaseDecided}) kept longer than
     * {@link LockSpec#MAX_TTL} is refused, and the lease stays held, its lock untouched and nothing marked decided.
     */
    @Test
    public void aLeaseEndingBeyondTheLongestTtlIsRefusedAndStaysHeld() {
        String name = name("ends-too-late");
        Duration tooLong = LockSpec.MAX_TTL.plusMillis(1);
        try (LockLease held = lock().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow()) {
            assertThatThrownBy(() -> held.releaseAfter(tooLong)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("30 days");
            assertThatThrownBy(() -> held.releaseDecided(tooLong)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("30 days");
            assertThatThrownBy(() -> held.releaseDecided(Duration.ofDays(365_000))).isInstanceOf(IllegalArgumentException.class);
            assertThat(held.isValid()).isTrue();
            assertThat(lock().remainingTtl(name)).hasValueSatisfying(left ->
                    assertThat(left).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30)));
            AcquireAttempt other = otherReplica().tryAcquireUnlessDecided(name, Duration.ofSeconds(30),
                    OverlapImpact.WASTED_WORK);
            assertThat(other.isDecided()).isFalse();
            assertThat(other.lease()).isEmpty();
            assertThat(held.releaseAfter(LockSpec.MAX_TTL)).as("the longest ttl itself").isEqualTo(ReleaseOutcome.RELEASED);
        }
        assertThat(lock().remainingTtl(name)).hasValueSatisfying(left ->
                assertThat(left).isGreaterThan(LockSpec.MAX_TTL.minusMinutes(1)));
        takeAway(name);
    }
}
