package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.spi.LeaseTiming;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.OwnedRedis;
import io.seatlock.test.FaultProxy;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
        return client(name, redis.port(), Duration.ofSeconds(2));
    }

    private static RedisLockClient client(String name, int port, Duration commandTimeout) {
        return TestTransports.standalone(RedisURI.create("redis://127.0.0.1:" + port), commandTimeout,
                RedisLockSettings.defaults().withKeyPrefix("handover:").withInstanceId(name)
                        .withTiming(LeaseTiming.defaults().withBackoff(SLOW_POLL, SLOW_POLL)), LockListener.NOOP);
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
    void aSubscriptionTheNetworkDroppedWithoutAWordIsMadeAgain() throws Exception {
        // A PING every 2.5 s on the subscribed connection; no answer within 0.5 s makes it again.
        try (FaultProxy network = new FaultProxy("127.0.0.1", redis.port());
             RedisLockClient holderClient = client("holder");
             RedisLockClient waiterClient = client("waiter", network.port(), Duration.ofMillis(500))) {
            assertThat(hearsTheRelease(holderClient, waiterClient, "before")).as("subscribed through the network").isTrue();

            network.forgetOpenConnections(); // the subscription and the command connection go dark for good

            AtomicInteger round = new AtomicInteger();
            await().atMost(Duration.ofSeconds(30)).until(() -> hearsTheRelease(holderClient, waiterClient,
                    "after-" + round.incrementAndGet()));
            assertThat(round).as("the forgotten subscription is noticed first").hasValueGreaterThan(1);
        }
    }

    @Test
    void theChecksKeepAQuietSubscriptionOnItsConnection() throws Exception {
        // Six command timeouts (3 s) without a byte would count as a dropped connection; the pings prevent that.
        try (RedisLockClient holderClient = client("holder"); RedisLockClient waiterClient = client("waiter", redis.port(),
                Duration.ofMillis(500))) {
            assertThat(hearsTheRelease(holderClient, waiterClient, "quiet-1")).isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> subscribedConnectionIds().size() == 1); // earlier tests' gone
            String subscribed = subscribedConnectionIds().get(0);

            await().atMost(Duration.ofSeconds(30)).until(() -> subscribedConnectionAge(subscribed) >= 5);

            assertThat(subscribedConnectionIds()).as("the same one connection, never made again").containsExactly(subscribed);
            assertThat(hearsTheRelease(holderClient, waiterClient, "quiet-2")).isTrue();
        }
    }

    private static List<String> subscribedConnectionIds() {
        return subscribedConnections().map(client -> client.get("id")).toList();
    }

    /** Seconds since the subscribed connection {@code id} was opened; -1 once it is gone. */
    private static long subscribedConnectionAge(String id) {
        return subscribedConnections().filter(client -> client.get("id").equals(id))
                .mapToLong(client -> Long.parseLong(client.get("age"))).findFirst().orElse(-1);
    }

    private static Stream<Map<String, String>> subscribedConnections() {
        return redis.server().<String>with(r -> r.clientList()).lines()
                .map(line -> Stream.of(line.split(" ")).map(field -> field.split("=", 2)).filter(pair -> pair.length == 2)
                        .collect(Collectors.toMap(pair -> pair[0], pair -> pair[1], (first, second) -> first)))
                .filter(client -> !"0".equals(client.get("psub")));
    }

    /**
     * Whether the waiter is told of the holder's release of {@code name}. Only a message can tell it: nothing here
     * polls, so a subscription that hears nothing makes this false.
     */
    private static boolean hearsTheRelease(RedisLockClient holder, RedisLockClient waiter, String name) throws Exception {
        LockLease held = holder.tryAcquire(name, TTL, OverlapImpact.BROKEN_PROMISE).orElseThrow();
        try {
            // as a waiting acquire's attempts do: a caller's call notices a command connection that went silent
            assertThat(waiter.holder(name)).hasValue("holder");
        } catch (LockUnavailableException e) {
            held.release();
            return false;
        }
        String lockKey = new RedisKeys("handover:").lock(name);
        CompletableFuture<Void> released = waiter.whenReleased(name);
        try {
            await().atMost(Duration.ofSeconds(3)).until(() ->
                    redis.server().<String>with(r -> r.get(lockKey)).endsWith(OwnerTokens.WAITED));
            held.release();
            released.get(3, TimeUnit.SECONDS);
            return true;
        } catch (ConditionTimeoutException | TimeoutException e) {
            return false; // the mark or the message did not get through
        } finally {
            released.cancel(false);
            held.release();
        }
    }

    /**
     * What a caller chains on {@code whenReleased} runs on a thread of the client's callbacks, not on the thread that
     * heard the release (Lettuce's I/O thread, Jedis' subscription), so it may call the lock itself: here it takes the
     * lock the release freed. Before, it ran on that thread; on Lettuce a lock call from there waits for a reply only
     * that thread can read when both connections share it.
     */
    @Test
    void aStageChainedOnWhenReleasedRunsOffTheClientsRedisThreadsAndMayCallTheLock() throws Exception {
        try (RedisLockClient holder = client("holder"); RedisLockClient waiter = client("chaining")) {
            String name = "chained";
            LockLease held = holder.tryAcquire(name, TTL, OverlapImpact.BROKEN_PROMISE).orElseThrow();
            CompletableFuture<String> ranOn = new CompletableFuture<>();
            CompletableFuture<Optional<LockLease>> taken = waiter.whenReleased(name).thenApply(released -> {
                ranOn.complete(Thread.currentThread().getName());
                return waiter.tryAcquire(name, TTL, OverlapImpact.BROKEN_PROMISE);
            });
            String lockKey = new RedisKeys("handover:").lock(name);
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    redis.server().<String>with(r -> r.get(lockKey)).endsWith(OwnerTokens.WAITED));

            held.release();

            LockLease lease = taken.get(10, TimeUnit.SECONDS).orElseThrow();
            assertThat(ranOn.get()).startsWith("seatlock-callback");
            String owner = redis.server().with(r -> r.get(lockKey));
            assertThat(owner).as("the chained stage holds the lock").isEqualTo(lease.ownerToken());
            lease.release();
        }
    }

    /** A wait with a bad bound is refused before the lock is marked as waited for: a refused call writes nothing. */
    @Test
    void aWaitWithABadBoundDoesNotMarkTheLock() throws Exception {
        try (RedisLockClient holder = client("holder"); RedisLockClient waiter = client("bad-bound")) {
            String name = "bad-bound";
            try (LockLease held = holder.tryAcquire(name, TTL, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
                assertThatThrownBy(() -> waiter.awaitRelease(name, null)).isInstanceOf(NullPointerException.class);
                assertThatThrownBy(() -> waiter.awaitRelease(name, Duration.ofMillis(-1)))
                        .isInstanceOf(IllegalArgumentException.class);

                String lockKey = new RedisKeys("handover:").lock(name);
                await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() ->
                        redis.server().<String>with(r -> r.get(lockKey)).equals(held.ownerToken()));
            }
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
