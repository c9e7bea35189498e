package io.seatlock.lock.spi;

import io.seatlock.lock.internal.CallbackThreads;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockClosedException;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The lease state machine both stores' leases are, on a scripted store: what the store answers is set per test, so
 * each edge (a renewal that finds the lease gone, one that never answers, a store that is down at release) is reached
 * at will. The stores' own suites hold the same behaviour against Redis and PostgreSQL.
 */
class StoreLeaseTest {

    private static final Duration CALL = Duration.ofMillis(300);

    private final ScheduledExecutorService watchdogs = LeaseWatchdog.scheduler();
    private final CallbackThreads callbacks = new CallbackThreads();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<StoreLease> ended = new CopyOnWriteArrayList<>();
    private final LockListener listener = new LockListener() {
        @Override
        public void onRenewed(String group) {
            events.add("renewed");
        }

        @Override
        public void onRenewalFailed(String group) {
            events.add("renewal-failed");
        }

        @Override
        public void onLost(String group, OverlapImpact impact, Duration held) {
            events.add("lost");
        }

        @Override
        public void onReleased(String group, Duration held) {
            events.add("released");
        }
    };
    private final LeaseServices services = new LeaseServices("the scripted store", new CallBound() {
        @Override
        public long callDeadline() {
            return System.nanoTime() + CALL.toNanos();
        }

        @Override
        public Duration callTimeout() {
            return CALL;
        }
    }, new SafetyMargin(0.01, Duration.ofMillis(1)), listener, watchdogs, callbacks, ended::add);

    @AfterEach
    void stop() {
        watchdogs.shutdownNow();
        callbacks.shutdown();
    }

    /** A store whose answers the test sets; it counts what it was asked. */
    private final class Scripted extends StoreLease {
        volatile boolean stillOurs = true;
        volatile @Nullable CompletableFuture<Boolean> backgroundAnswer;
        volatile boolean down;
        final AtomicInteger extensions = new AtomicInteger();
        final AtomicInteger deletes = new AtomicInteger();
        final List<String> lostReasons = new ArrayList<>();

        Scripted(Duration ttl, long startNanos) {
            super(services, new LockSpec("job:nightly", ttl, OverlapImpact.BROKEN_PROMISE), "job", "owner-1",
                    new FencingToken(7), startNanos);
        }

        @Override
        protected boolean extend(Duration ttl, long deadline) {
            extensions.incrementAndGet();
            return stillOurs;
        }

        @Override
        protected CompletableFuture<Boolean> extendInBackground() {
            extensions.incrementAndGet();
            CompletableFuture<Boolean> scripted = backgroundAnswer;
            return scripted != null ? scripted : CompletableFuture.completedFuture(stillOurs);
        }

        @Override
        protected boolean delete(@Nullable Duration keepMarkerFor, long deadline) {
            deletes.incrementAndGet();
            if (down) {
                throw new LockUnavailableException("the scripted store is down", null);
            }
            return stillOurs;
        }

        @Override
        protected void logLost(String reason) {
            lostReasons.add(reason);
        }
    }

    @Test
    void theLocalDeadlineIsTheTtlLessTheMarginReckonedFromWhenTheGrantWasSent() {
        long sent = System.nanoTime() - Duration.ofMillis(900).toNanos();
        Scripted lease = new Scripted(Duration.ofSeconds(1), sent); // margin: 1 % of 1 s = 10 ms
        assertThat(lease.isValid()).isTrue();
        assertThat(lease.validFor()).isLessThanOrEqualTo(Duration.ofMillis(90)).isPositive();

        Scripted late = new Scripted(Duration.ofSeconds(1), System.nanoTime() - Duration.ofMillis(995).toNanos());
        assertThat(late.isValid()).as("within the margin of its ttl").isFalse();
        assertThat(late.validFor()).isZero();
    }

    @Test
    void aKeptLeaseWhoseRenewalFindsItGoneIsLostOnceAndItsCallbackRunsOnce() {
        Scripted lease = new Scripted(Duration.ofMillis(300), System.nanoTime());
        lease.stillOurs = false;
        AtomicInteger callbackRuns = new AtomicInteger();
        lease.keepAlive(callbackRuns::incrementAndGet);

        await().atMost(Duration.ofSeconds(5)).until(() -> callbackRuns.get() == 1);
        assertThat(lease.isLost()).isTrue();
        assertThat(lease.isKeptAlive()).isFalse();
        assertThat(lease.lostReasons).containsExactly("a renewal found it taken or expired");
        assertThat(ended).containsExactly(lease);
        assertThat(events).containsExactly("lost");
        assertThat(lease.renew()).as("a lost lease renews nothing").isFalse();
        assertThat(lease.release()).isEqualTo(ReleaseOutcome.LOST);
        assertThat(callbackRuns).hasValue(1);
        assertThat(events).containsExactly("lost");
    }

    @Test
    void aKeptLeaseIsRenewedAtAThirdOfItsTtlAndOutlivesIt() {
        Scripted lease = new Scripted(Duration.ofMillis(300), System.nanoTime());
        lease.keepAlive(() -> { });
        await().atMost(Duration.ofSeconds(5)).until(() -> lease.extensions.get() >= 3);
        assertThat(lease.isValid()).isTrue();
        assertThat(events).contains("renewed").doesNotContain("lost");
        assertThat(lease.release()).isEqualTo(ReleaseOutcome.RELEASED);
        assertThat(ended).containsExactly(lease);
    }

    @Test
    void aRenewalThatNeverAnswersLosesTheLeaseBeforeItsLocalDeadlineAndACallersRenewIsBounded() throws Exception {
        long acquired = System.nanoTime();
        Duration ttl = Duration.ofMillis(2400); // gives up 240 ms before its deadline: room for a busy machine
        Scripted lease = new Scripted(ttl, acquired);
        lease.backgroundAnswer = new CompletableFuture<>(); // the store never answers
        CompletableFuture<Long> lostAt = new CompletableFuture<>();
        lease.keepAlive(() -> lostAt.complete(System.nanoTime()));
        await().atMost(Duration.ofSeconds(5)).until(() -> lease.extensions.get() >= 1);

        long start = System.nanoTime();
        assertThatThrownBy(lease::renew).isInstanceOf(LockUnavailableException.class)
                .hasMessageContaining("still waits for the scripted store after " + CALL);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(CALL.multipliedBy(3));

        assertThat(lostAt.get(5, TimeUnit.SECONDS) - acquired).as("lost before the local deadline")
                .isLessThan(ttl.toNanos());
        assertThat(lease.lostReasons).containsExactly("could not be renewed before its local deadline");
    }

    @Test
    void aReleaseEndsTheLeaseHereEvenWhenTheStoreIsDownAndASecondOneAsksNothing() {
        Scripted lease = new Scripted(Duration.ofSeconds(10), System.nanoTime());
        lease.down = true;
        assertThatThrownBy(lease::release).isInstanceOf(LockUnavailableException.class);
        assertThat(lease.isValid()).isFalse();
        assertThat(ended).containsExactly(lease);

        assertThat(lease.release()).isEqualTo(ReleaseOutcome.ALREADY_RELEASED);
        assertThat(lease.deletes).hasValue(1);
        assertThatThrownBy(lease::renew).isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
    }

    @Test
    void releasingALeaseTheStoreNoLongerHasSaysLost() {
        Scripted lease = new Scripted(Duration.ofSeconds(10), System.nanoTime());
        lease.stillOurs = false;
        assertThat(lease.release()).isEqualTo(ReleaseOutcome.LOST);
        assertThat(events).containsExactly("lost");
    }

    @Test
    void keepingALeaseAliveOnAClosedLockIsLockClosedException() {
        Scripted lease = new Scripted(Duration.ofSeconds(10), System.nanoTime());
        watchdogs.shutdownNow();
        assertThatThrownBy(() -> lease.keepAlive(() -> { })).isInstanceOf(LockClosedException.class)
                .hasMessageContaining("not kept alive");
        assertThat(lease.isKeptAlive()).as("nothing keeps it alive").isFalse();
        assertThatThrownBy(() -> lease.keepAlive(() -> { })).as("asked again")
                .isInstanceOf(LockClosedException.class);
        assertThat(lease.isValid()).isTrue();
    }

    @Test
    void theCallbackThreadsRunALostCallbackOffTheRenewingThread() throws Exception {
        Scripted lease = new Scripted(Duration.ofMillis(300), System.nanoTime());
        lease.stillOurs = false;
        CompletableFuture<String> ranOn = new CompletableFuture<>();
        lease.keepAlive(() -> ranOn.complete(Thread.currentThread().getName()));
        assertThat(ranOn.get(5, TimeUnit.SECONDS)).startsWith("seatlock-callback");
    }
}
