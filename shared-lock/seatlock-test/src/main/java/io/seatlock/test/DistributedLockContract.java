package io.seatlock.test;

import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.lock.spi.LockSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every {@link DistributedLock} must do, as JUnit 5 tests: extend it and supply three things: the lock
 * ({@link #lock()}), another replica's lock on the same store ({@link #otherReplica()}) and a way to take a lock away
 * behind its holder's back ({@link #takeAway}); a lock on a manual clock also lets time pass ({@link #passTime}).
 * seatlock runs it against Redis (standalone and Cluster), PostgreSQL and {@link InMemoryLock}; write another backend
 * and run it against yours, as ShedLock's provider contract is used.
 */
public abstract class DistributedLockContract extends LeaseContract {

    /** For subclasses. */
    protected DistributedLockContract() {
    }

    /**
     * One holder at a time, across replicas; a release frees the lock.
     */
    @Test
    public void oneHolderAtATime() {
        String name = name("one");
        try (LockLease lease = lock().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            assertThat(lease.name()).isEqualTo(name);
            assertThat(lease.isValid()).isTrue();
            assertThat(lock().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE)).isEmpty();
            assertThat(otherReplica().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE)).isEmpty();
        }
        assertThat(otherReplica().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE)).isPresent();
    }

    /**
     * Fencing tokens grow with every grant, across replicas and after an expiry.
     */
    @Test
    public void fencingTokensGrowWithEveryGrantAcrossReplicasAndExpiry() {
        String name = name("tokens");
        long previous = 0;
        for (int i = 0; i < 3; i++) {
            DistributedLock who = i % 2 == 0 ? lock() : otherReplica();
            try (LockLease lease = who.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
                assertThat(lease.fencingToken().value()).isGreaterThan(previous);
                previous = lease.fencingToken().value();
            }
        }
        LockLease expiring = lock().tryAcquire(name, Duration.ofMillis(300), OverlapImpact.BROKEN_PROMISE).orElseThrow();
        letExpire(name, Duration.ofMillis(300));
        LockLease next = otherReplica().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE).orElseThrow();
        assertThat(next.fencingToken().isNewerThan(expiring.fencingToken())).isTrue();
        next.release();
    }

    /**
     * A holder whose lease ran out can neither release nor renew the next holder's lock.
     */
    @Test
    public void aStaleHolderCanNeitherReleaseNorRenewTheNextHoldersLock() {
        String name = name("stale");
        LockLease stale = lock().tryAcquire(name, Duration.ofMillis(300), OverlapImpact.BROKEN_PROMISE).orElseThrow();
        letExpire(name, Duration.ofMillis(300));
        assertThat(stale.isValid()).isFalse();
        LockLease next = otherReplica().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE).orElseThrow();

        assertThat(stale.renew()).isFalse();
        assertThat(stale.isLost()).isTrue();
        assertThat(stale.release()).isEqualTo(ReleaseOutcome.LOST);
        assertThat(lock().remainingTtl(name)).as("the next holder's lock stands").isPresent();
        assertThat(next.release()).isEqualTo(ReleaseOutcome.RELEASED);
        assertThat(lock().remainingTtl(name)).isEmpty();
        assertThat(next.release()).isEqualTo(ReleaseOutcome.ALREADY_RELEASED);
    }

    /**
     * A busy answer carries the holder's time left.
     */
    @Test
    public void aBusyAnswerCarriesTheHoldersTimeLeft() {
        String name = name("busy");
        try (LockLease held = lock().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            AcquireAttempt attempt = otherReplica().tryAcquireUnlessDecided(name, Duration.ofSeconds(30),
                    OverlapImpact.BROKEN_PROMISE);
            assertThat(attempt.lease()).isEmpty();
            assertThat(attempt.isDecided()).isFalse();
            assertThat(attempt.busyFor()).hasValueSatisfying(left -> assertThat(left)
                    .isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30)));
            assertThat(held.isValid()).isTrue();
        }
    }

    /**
     * A name prefix is taken literally: characters a store's patterns read as wildcards ({@code * ? [ ] \}) match
     * only themselves, and a prefix with braces or control characters, which no name has, is refused.
     */
    @Test
    public void aNamePrefixIsTakenLiterally() {
        String star = name("glob:a*b");
        String backslash = name("glob:a\\b");
        String bracket = name("glob:[a]");
        String plain = name("glob:ab");
        List<LockLease> leases = Stream.of(star, backslash, bracket, plain)
                .map(n -> lock().tryAcquire(n, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow()).toList();
        try {
            assertThat(otherReplica().heldNames(name("glob:a*"))).containsExactly(star);
            assertThat(otherReplica().heldNames(name("glob:a\\"))).containsExactly(backslash);
            assertThat(otherReplica().heldNames(name("glob:[a"))).containsExactly(bracket);
            assertThat(otherReplica().heldNames(name("glob:a?"))).isEmpty();
            assertThat(otherReplica().heldNames(name("glob:"))).containsExactlyInAnyOrder(star, backslash, bracket, plain);
            assertThatThrownBy(() -> lock().heldNames(name("glob:{a"))).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> lock().heldNames(name("glob:\n"))).isInstanceOf(IllegalArgumentException.class);
        } finally {
            leases.forEach(LockLease::close);
        }
    }

    /**
     * Status queries describe what is held.
     */
    @Test
    public void statusQueriesDescribeWhatIsHeld() {
        String name = name("status:a");
        String free = name("status:b");
        try (LockLease lease = lock().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow()) {
            assertThat(lock().held(List.of(name, free))).containsExactly(name);
            assertThat(otherReplica().heldNames(name("status:"))).containsExactly(name);
            assertThat(otherReplica().holder(name)).isPresent();
            assertThat(otherReplica().holder(free)).isEmpty();
            assertThat(lock().remainingTtl(name)).hasValueSatisfying(left ->
                    assertThat(left).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30)));
            assertThat(lease.ownerToken()).isNotBlank();
        }
    }

    /**
     * A blocking acquire gets the lock once its holder releases, and gives up after its wait.
     *
     * @throws Exception if the test fails
     */
    @Test
    public void aBlockingAcquireGetsTheLockOnceItsHolderReleases() throws Exception {
        String name = name("wait");
        LockLease first = lock().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow();
        CompletableFuture<LockLease> waiting = otherReplicaAcquiring(name, Pauses.DEFAULT_WAIT);
        assertThat(waiting).isNotDone();
        first.release();
        LockLease second = waiting.get(Pauses.DEFAULT_WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(second.fencingToken().isNewerThan(first.fencingToken())).isTrue();
        second.release();
        try (LockLease held = lock().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow()) {
            assertThatThrownBy(() -> otherReplica().acquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK,
                    Duration.ZERO)).isInstanceOf(LockNotAcquiredException.class);
            assertThat(held.isValid()).isTrue();
        }
    }

    /**
     * Bad names, ttls and a missing impact are refused and touch nothing.
     */
    @Test
    public void badInputIsRefusedAndTouchesNothing() {
        for (String bad : new String[] {"", " ", "a{b}", "x".repeat(201), "tab\there"}) {
            assertThatThrownBy(() -> lock().tryAcquire(bad, Duration.ofSeconds(1), OverlapImpact.WASTED_WORK))
                    .as("name %s", bad).isInstanceOf(IllegalArgumentException.class);
        }
        String name = name("bad-ttl");
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofMillis(-1), LockSpec.MAX_TTL.plusMillis(1)}) {
            assertThatThrownBy(() -> lock().tryAcquire(name, bad, OverlapImpact.WASTED_WORK))
                    .as("ttl %s", bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> lock().tryAcquire(name, Duration.ofSeconds(1), null))
                .isInstanceOf(NullPointerException.class);
        assertThat(lock().remainingTtl(name)).isEmpty();
        try (LockLease held = lock().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow()) {
            assertThatThrownBy(() -> held.keepAlive(null)).isInstanceOf(NullPointerException.class);
            assertThat(held.isKeptAlive()).isFalse();
        }
    }

    /**
     * A blocking acquire, or a wait for a release, may be told to wait for ever ({@code ChronoUnit.FOREVER}, too long
     * for a {@code long} of nanoseconds): an acquire takes a free lock at once, and a busy one once its holder releases
     * it; a wait for the release of a lock nobody holds ends at once.
     *
     * @throws Exception if the waiting acquire fails
     */
    @Test
    public void aBlockingAcquireMayWaitForEver() throws Exception {
        String name = name("forever");
        Duration forever = ChronoUnit.FOREVER.getDuration();
        LockLease first = lock().acquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK, forever);
        CompletableFuture<LockLease> second = otherReplicaAcquiring(name, forever);
        assertThat(first.release()).isEqualTo(ReleaseOutcome.RELEASED);
        LockLease took = second.get(30, TimeUnit.SECONDS);
        assertThat(took.fencingToken().isNewerThan(first.fencingToken())).isTrue();
        took.release();
        CompletableFuture<Void> free = CompletableFuture.runAsync(() -> {
            try {
                otherReplica().awaitRelease(name, forever);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        free.get(30, TimeUnit.SECONDS); // a lock nobody holds: the wait for its release, for ever too, ends at once
    }

    /**
     * A wait for a release with no bound, or a negative one, is refused before it asks anything of the lock; the holder
     * keeps it.
     *
     * @throws Exception if the zero-bound wait is interrupted
     */
    @Test
    public void aWaitForAReleaseWithABadBoundIsRefused() throws Exception {
        String name = name("bad-wait");
        try (LockLease held = lock().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow()) {
            assertThatThrownBy(() -> otherReplica().awaitRelease(name, null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> otherReplica().awaitRelease(name, Duration.ofMillis(-1)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be negative");
            assertThatThrownBy(() -> otherReplica().awaitRelease("a{b}", Duration.ofMillis(1)))
                    .isInstanceOf(IllegalArgumentException.class);
            otherReplica().awaitRelease(name, Duration.ZERO); // a bound of zero: no wait, and no error
            assertThat(held.isValid()).isTrue();
            assertThat(otherReplica().tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK)).isEmpty();
        }
    }
}
