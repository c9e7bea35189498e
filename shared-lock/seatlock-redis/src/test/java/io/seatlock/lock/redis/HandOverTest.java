package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.OwnedRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GH-20 item 4: a waiting acquirer is woken by the release itself (a waiter marks the lock; a marked lock's
 * release publishes on its channel) instead of sitting out its back-off; a lock nobody waits for publishes
 * nothing; the holder keeps its lease, renewals and name while marked. On a Redis of its own, so the command
 * counts are this test's.
 */
class HandOverTest {

    /** So long that a waiter that only polls would still be asleep when the assertions below give up. */
    private static final Duration SLOW_POLL = Duration.ofSeconds(8);
    private static final Duration TTL = Duration.ofSeconds(30);
    private static OwnedRedis redis;

    @BeforeAll
    static void start() throws Exception {
        redis = new OwnedRedis();
    }

    @AfterAll
    static void stop() throws Exception {
        redis.close();
    }

    private static RedisLockClient client(String name) {
        return TestTransports.standalone(RedisURI.create("redis://127.0.0.1:" + redis.port()), Duration.ofSeconds(2),
                new RedisLockSettings("handover:", name, 0.01, Duration.ofMillis(1), SLOW_POLL, SLOW_POLL, 0,
                        Duration.ofMillis(100)), LockListener.NOOP);
    }

    @Test
    void aWaitingAcquirerGetsTheLockAsSoonAsTheHolderReleasesIt() throws Exception {
        ExecutorService waiterThread = Executors.newSingleThreadExecutor();
        try (RedisLockClient holderClient = client("holder"); RedisLockClient waiterClient = client("waiter")) {
            LockLease held = holderClient.tryAcquire("seat", TTL, OverlapImpact.BROKEN_PROMISE).orElseThrow();
            Future<Long> acquiredAt = waiterThread.submit(() -> {
                LockLease lease = waiterClient.acquire("seat", TTL, OverlapImpact.BROKEN_PROMISE, Duration.ofSeconds(60));
                long at = System.nanoTime();
                lease.release();
                return at;
            });
            String lockKey = new RedisKeys("handover:").lock("seat");
            await().atMost(Duration.ofSeconds(30)).until(() ->
                    redis.server().<String>with(r -> r.get(lockKey)).endsWith(OwnerTokens.WAITED));
            assertThat(holderClient.holder("seat")).as("the mark hides nothing").hasValue("holder");
            assertThat(held.renew()).as("the holder still renews its marked lock").isTrue();

            long releasedAt = System.nanoTime();
            held.release();
            Duration handOver = Duration.ofNanos(acquiredAt.get(60, TimeUnit.SECONDS) - releasedAt);
            // A poll would come half a back-off (4 s) to a back-off (8 s) after the waiter's last attempt.
            assertThat(handOver).as("release to next holder").isLessThan(SLOW_POLL.dividedBy(4));
        } finally {
            waiterThread.shutdownNow();
        }
    }

    @Test
    void whenReleasedCompletesAtOnceForAFreeLockAndALockNobodyWaitsForPublishesNothing() throws Exception {
        try (RedisLockClient client = client("alone")) {
            CompletableFuture<Void> free = client.whenReleased("free");
            free.get(10, TimeUnit.SECONDS);

            redis.server().with(r -> r.configResetstat());
            for (int i = 0; i < 10; i++) {
                client.tryAcquire("unwatched", TTL, OverlapImpact.BROKEN_PROMISE).orElseThrow().release();
            }
            Map<String, Long> calls = redis.server().commandCalls();
            assertThat(calls).doesNotContainKey("publish").containsEntry("del", 10L);
        }
    }
}
