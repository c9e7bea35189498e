package io.seatlock.lock;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link DistributedLock#executeLocked}'s interrupt is for the task: a lost-lease callback runs on a thread of its own
 * and may come late, after the task returned, when the caller's thread (a pooled one) is at other work.
 */
class ExecuteLockedTest {

    /** A lease whose lost-lease callback the test fires when it likes. */
    private static final class HeldLease implements LockLease {
        volatile Runnable onLost;
        volatile boolean lost;

        @Override public String name() { return "job"; }
        @Override public String ownerToken() { return "owner"; }
        @Override public FencingToken fencingToken() { return new FencingToken(1); }
        @Override public OverlapImpact impact() { return OverlapImpact.WASTED_WORK; }
        @Override public boolean isValid() { return !lost; }
        @Override public Duration validFor() { return Duration.ofSeconds(lost ? 0 : 30); }
        @Override public boolean renew() { return !lost; }
        @Override public boolean renew(Duration ttl) { return !lost; }
        @Override public LockLease keepAlive(Runnable callback) { onLost = callback; return this; }
        @Override public boolean isKeptAlive() { return onLost != null; }
        @Override public boolean isLost() { return lost; }
        @Override public ReleaseOutcome release() { return lost ? ReleaseOutcome.LOST : ReleaseOutcome.RELEASED; }
        @Override public ReleaseOutcome releaseAfter(Duration keepFor) { return release(); }
        @Override public void close() { release(); }
    }

    /** A lock that grants {@code lease} and does nothing else. */
    private static DistributedLock granting(HeldLease lease) {
        return new DistributedLock() {
            @Override public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
                return Optional.of(lease);
            }
            @Override public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait) {
                throw new UnsupportedOperationException();
            }
            @Override public Optional<Duration> remainingTtl(String name) { return Optional.empty(); }
            @Override public Optional<String> holder(String name) { return Optional.empty(); }
            @Override public Set<String> heldNames(String namePrefix) { return Set.of(); }
            @Override public Set<String> held(Collection<String> names) { return Set.of(); }
        };
    }

    private static void fireLate(HeldLease lease) throws Exception {
        CompletableFuture.runAsync(lease.onLost).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aLostLeaseCallbackThatComesAfterTheTaskReturnedInterruptsNobody() throws Exception {
        HeldLease lease = new HeldLease();
        TaskResult<String> result = granting(lease).executeLocked("job", Duration.ofSeconds(30),
                OverlapImpact.WASTED_WORK, l -> "done");
        assertThat(result.result()).isEqualTo("done");
        lease.lost = true; // lost after all, and its callback comes now, on a thread of its own
        fireLate(lease);
        assertThat(Thread.interrupted()).as("the caller's thread, at other work now").isFalse();
    }

    @Test
    void aLostLeaseCallbackThatComesAfterTheLostTaskEndedInterruptsNobodyEither() throws Exception {
        HeldLease lease = new HeldLease();
        assertThatThrownBy(() -> granting(lease).executeLocked("job", Duration.ofSeconds(30), OverlapImpact.WASTED_WORK,
                l -> {
                    lease.lost = true; // found lost while the task ran; its callback is late
                    return "done";
                })).isInstanceOf(LockLostException.class);
        fireLate(lease);
        assertThat(Thread.interrupted()).isFalse();
    }

    @Test
    void aLostLeaseCallbackWhileTheTaskRunsInterruptsIt() {
        HeldLease lease = new HeldLease();
        assertThatThrownBy(() -> granting(lease).executeLocked("job", Duration.ofSeconds(30), OverlapImpact.WASTED_WORK,
                l -> {
                    lease.lost = true;
                    new Thread(lease.onLost, "lost-callback").start();
                    Thread.sleep(Duration.ofSeconds(30).toMillis()); // the interrupt ends it
                    return "slept";
                })).isInstanceOf(LockLostException.class)
                .satisfies(lost -> assertThat(lost.getSuppressed()).hasAtLeastOneElementOfType(InterruptedException.class));
        assertThat(Thread.interrupted()).as("the interrupt was the task's; none is left").isFalse();
    }
}
