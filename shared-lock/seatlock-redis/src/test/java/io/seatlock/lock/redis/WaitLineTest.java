package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.CountingListener;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Many threads of one replica waiting for one name stand in line: a release wakes one attempt, not the crowd, so the
 * store is asked about the same number of times per hand-over whatever the number of waiters, every thread gets the
 * name in its turn, and no two hold it at once. A thread in line still ends at its own {@code maxWait}.
 */
class WaitLineTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("WaitLineTest");

    private static final int THREADS = 40;
    private static final int HAND_OVERS = 400;

    @Test
    void aReleaseWakesOneAttemptAndEveryThreadGetsItsTurn() throws Exception {
        CountingListener counts = new CountingListener();
        ExecutorService crowd = Executors.newFixedThreadPool(THREADS);
        try (RedisLockClient lock = TestTransports.standalone(RedisURI.create(servers.redis().host(),
                servers.redis().port()), Duration.ofSeconds(2),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), counts)) {
            AtomicInteger granted = new AtomicInteger();
            AtomicInteger holding = new AtomicInteger();
            AtomicReference<String> overlap = new AtomicReference<>();
            List<CompletableFuture<Integer>> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                threads.add(CompletableFuture.supplyAsync(() -> {
                    int mine = 0;
                    while (granted.get() < HAND_OVERS) {
                        try (LockLease lease = lock.acquire("crowd", Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE,
                                Duration.ofSeconds(60))) {
                            if (holding.incrementAndGet() != 1) {
                                overlap.set("two holders at once, token " + lease.fencingToken());
                            }
                            granted.incrementAndGet();
                            mine++;
                            holding.decrementAndGet();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return mine;
                        }
                    }
                    return mine;
                }, crowd));
            }
            List<Integer> perThread = new ArrayList<>();
            for (CompletableFuture<Integer> thread : threads) {
                perThread.add(thread.get(120, TimeUnit.SECONDS));
            }
            assertThat(overlap.get()).isNull();
            int grants = counts.acquired.get();
            assertThat(grants).isGreaterThanOrEqualTo(HAND_OVERS);
            assertThat((double) counts.attempts.get() / grants)
                    .as("attempts per grant with %s threads in line (%s attempts, %s grants)", THREADS,
                            counts.attempts.get(), grants)
                    .isLessThan(3.0);
            assertThat(perThread).as("grants per thread, in turn").allSatisfy(n -> assertThat(n)
                    .isGreaterThanOrEqualTo(HAND_OVERS / THREADS / 2));
        } finally {
            crowd.shutdownNow();
        }
    }

    @Test
    void aThreadInLineEndsAtItsOwnMaxWait() throws Exception {
        try (RedisLockClient lock = TestTransports.standalone(RedisURI.create(servers.redis().host(),
                servers.redis().port()), Duration.ofSeconds(2),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), new CountingListener())) {
            LockLease held = lock.tryAcquire("queued", Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow();
            CompletableFuture<Void> first = CompletableFuture.runAsync(() -> {
                try {
                    lock.acquire("queued", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK, Duration.ofSeconds(30))
                            .release();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ofMillis(50)).until(() -> !first.isDone());
            long start = System.nanoTime();
            assertThatThrownBy(() -> lock.acquire("queued", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK,
                    Duration.ofMillis(300))).isInstanceOf(LockNotAcquiredException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            held.release();
            first.get(30, TimeUnit.SECONDS); // the first in line still gets it
        }
    }
}
