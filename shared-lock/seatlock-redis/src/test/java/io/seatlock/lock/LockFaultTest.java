package io.seatlock.lock;

import io.seatlock.lock.redis.TestTransports;
import io.seatlock.lock.redis.RedisKeys;
import io.lettuce.core.RedisURI;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.test.FaultProxy;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The lock with Redis black-holed, cut or slow (a loopback proxy in between): bounded, honest, no leaks. GH-10. */
class LockFaultTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("LockFaultTest");

    private final CountingListener counts = new CountingListener();
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
    }

    private FaultProxy proxy() throws Exception {
        FaultProxy proxy = new FaultProxy(servers.redis().host(), servers.redis().port());
        cleanup.add(proxy);
        return proxy;
    }

    private RedisLockClient client(FaultProxy proxy, Duration commandTimeout) {
        RedisLockClient client = TestTransports.standalone(RedisURI.create(proxy.host(), proxy.port()), commandTimeout,
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), counts);
        cleanup.add(client);
        return client;
    }

    private String owner(String name) {
        return servers.redis().with(r -> r.get(new RedisKeys(servers.keyPrefix()).lock(name)));
    }

    private ExecutorService pool(int threads) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        cleanup.add(pool::shutdownNow);
        return pool;
    }

    @Test // item 2
    void everyLostLeaseCallbackComesBeforeItsLocalDeadlineHoweverManyLeasesWaitOnASilentRedis() throws Exception {
        FaultProxy proxy = proxy();
        RedisLockClient lock = client(proxy, Duration.ofSeconds(2)); // the command timeout is most of the lease
        Duration ttl = Duration.ofSeconds(3);
        int leases = 6;
        long[] deadlineAtMost = new long[leases];
        long[] lostAt = new long[leases];
        CountDownLatch allLost = new CountDownLatch(leases);
        for (int i = 0; i < leases; i++) {
            LockLease lease = lock.tryAcquire("kept:" + i, ttl, OverlapImpact.BROKEN_PROMISE).orElseThrow();
            long now = System.nanoTime();
            deadlineAtMost[i] = now + lease.validFor().toNanos(); // no later than the lease's own local deadline
            int slot = i;
            lease.keepAlive(() -> {
                lostAt[slot] = System.nanoTime();
                allLost.countDown();
            });
        }
        proxy.blackhole();

        assertThat(allLost.await(30, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < leases; i++) {
            assertThat(lostAt[i]).as("lease %d lost-lease signal vs its local deadline", i).isLessThan(deadlineAtMost[i]);
        }
        assertThat(lock.heldLeases()).isEmpty();
        assertThat(counts.lost).hasValue(leases);
        proxy.heal();
    }

    @Test // item 3
    void aGrantWhoseAnswerArrivesAfterItsLocalDeadlineIsNotAcquiredAndIsTakenBack() throws Exception {
        FaultProxy proxy = proxy();
        RedisLockClient lock = client(proxy, Duration.ofSeconds(30));
        lock.ping();
        Duration ttl = Duration.ofSeconds(4);
        proxy.blackhole();
        long stalledBefore = proxy.stalledReads();
        CompletableFuture<java.util.Optional<LockLease>> attempt =
                CompletableFuture.supplyAsync(() -> lock.tryAcquire("slow", ttl, OverlapImpact.WASTED_WORK), pool(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> proxy.stalledReads() > stalledBefore);
        long sentAt = System.nanoTime();
        await().atMost(Duration.ofSeconds(30)).until(() -> System.nanoTime() - sentAt > ttl.toNanos());
        proxy.heal();

        assertThat(attempt.get(30, TimeUnit.SECONDS)).as("too late to be valid: not acquired, no exception").isEmpty();
        long answeredAt = System.nanoTime();
        assertThat(counts.lateGrants).hasValue(1);
        assertThat(counts.unavailable).hasValue(0);
        // Redis granted it with a fresh 4 s ttl on arrival; it is gone long before that: deleted by owner.
        await().atMost(Duration.ofSeconds(3)).until(() -> owner("slow") == null);
        assertThat(System.nanoTime() - answeredAt).isLessThan(ttl.toNanos());
        assertThat(lock.heldLeases()).isEmpty();
    }

    @Test // item 5
    void interruptingABlockingAcquireInFlightThrowsInterruptedAndTheGrantIsTakenBack() throws Exception {
        FaultProxy proxy = proxy();
        RedisLockClient lock = client(proxy, Duration.ofSeconds(20));
        lock.ping();
        proxy.blackhole();
        long stalledBefore = proxy.stalledReads();
        ExecutorService pool = pool(1);
        Thread[] worker = new Thread[1];
        Future<LockLease> acquiring = pool.submit(() -> {
            worker[0] = Thread.currentThread();
            return lock.acquire("orphan", Duration.ofMinutes(5), OverlapImpact.BROKEN_PROMISE, Duration.ofMinutes(1));
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> proxy.stalledReads() > stalledBefore);
        worker[0].interrupt();

        assertThatThrownBy(() -> acquiring.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(InterruptedException.class);
        proxy.heal(); // the acquire now reaches Redis and is granted to nobody who waits...
        // ...and is deleted by owner right after, instead of standing for its five minutes
        await().atMost(Duration.ofSeconds(10)).until(() -> owner("orphan") == null);
        assertThat(lock.heldLeases()).isEmpty();
        assertThat(lock.tryAcquire("orphan", Duration.ofSeconds(5), OverlapImpact.BROKEN_PROMISE)).isPresent();
    }

    @Test // item 6
    void aReleaseThatFailsStillEndsTheLeaseLocally() throws Exception {
        FaultProxy proxy = proxy();
        RedisLockClient lock = TestTransports.warmedUp(client(proxy, Duration.ofMillis(500)));
        LockLease job = lock.tryAcquire("job:report", Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();
        LockLease plain = lock.tryAcquire("job:other", Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();
        assertThat(lock.heldLeases()).hasSize(2);
        proxy.down();

        assertThatThrownBy(() -> job.releaseAfter(Duration.ofSeconds(30))) // ShedLock's unlock during lockAtLeastFor
                .isInstanceOf(LockUnavailableException.class);
        assertThatThrownBy(plain::release).isInstanceOf(LockUnavailableException.class);
        assertThat(lock.heldLeases()).as("health and the locks endpoint must not show them as held").isEmpty();
        assertThat(plain.isValid()).isFalse();
    }

    @Test
    void closingTheClientWhileRedisIsBlackHoledIsBoundedAndLeavesItsLocksToExpire() throws Exception {
        FaultProxy proxy = proxy();
        Duration timeout = Duration.ofSeconds(1);
        RedisLockClient lock = client(proxy, timeout);
        lock.tryAcquire("job:nightly", Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();
        lock.tryAcquire("job:weekly", Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();
        proxy.blackhole();

        ExecutorService pool = pool(1);
        Future<Long> took = pool.submit(() -> {
            long t0 = System.nanoTime();
            lock.close();
            return System.nanoTime() - t0;
        });
        // the releases get one command timeout, letting the connections go at most 3 s more (README, "closing")
        assertThat(Duration.ofNanos(took.get(60, TimeUnit.SECONDS))).isLessThan(timeout.plusSeconds(3 + 4));
        String key = new RedisKeys(servers.keyPrefix()).lock("job:nightly");
        assertThat(owner("job:nightly")).as("unreachable: left to expire with its ttl").isNotNull();
        assertThat(servers.redis().<Long>with(r -> r.pttl(key))).isPositive();
        assertThat(owner("job:weekly")).isNotNull();
    }

    @Test
    void aLeaseKeptAliveOverAConnectionTheNetworkDroppedRenewsOnANewOne() throws Exception {
        FaultProxy proxy = proxy();
        RedisLockClient lock = TestTransports.warmedUp(client(proxy, Duration.ofMillis(500)));
        AtomicInteger lost = new AtomicInteger();
        LockLease lease = lock.tryAcquire("job:kept", Duration.ofSeconds(9), OverlapImpact.WASTED_WORK).orElseThrow()
                .keepAlive(lost::incrementAndGet);
        int renewedBefore = counts.renewed.get();

        proxy.forgetOpenConnections(); // nothing but the watchdog's renewals talks to Redis from here

        await().atMost(Duration.ofSeconds(60)).until(() -> counts.renewed.get() >= renewedBefore + 2 || lost.get() > 0);
        assertThat(lost).as("renewed on a new connection before its lease ran out").hasValue(0);
        assertThat(lease.isValid()).isTrue();
        assertThat(owner("job:kept")).isEqualTo(lease.ownerToken());
    }

    @Test // item 7
    void connectingToABlackHoledRedisCostsEachConcurrentCallerOneTimeoutNotAQueue() throws Exception {
        FaultProxy proxy = proxy();
        proxy.blackhole(); // from start-up: the very first connect never completes its handshake
        Duration timeout = Duration.ofSeconds(1);
        RedisLockClient lock = client(proxy, timeout);
        int callers = 12;
        ExecutorService pool = pool(callers);
        List<Future<Long>> took = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int i = 0; i < callers; i++) {
            String name = "seat:dark:" + i;
            Callable<Long> call = () -> {
                start.await();
                long t0 = System.nanoTime();
                assertThatThrownBy(() -> lock.tryAcquire(name, Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE))
                        .isInstanceOf(LockUnavailableException.class);
                return System.nanoTime() - t0;
            };
            took.add(pool.submit(call));
        }
        start.countDown();
        for (Future<Long> f : took) {
            // one timeout plus a margin for a busy machine; queued connects would take 12 timeouts for the last
            assertThat(Duration.ofNanos(f.get(60, TimeUnit.SECONDS))).isLessThan(timeout.multipliedBy(3));
        }
        proxy.heal();
        // A name none of the dark calls asked for: the healed link delivers their held commands, and one of those
        // may grant its lock after the caller gave up (on Jedis the take-back can arrive first), for its 10 s ttl.
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> lock.tryAcquire("seat:healed", Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE).isPresent());
    }

    @Test // item 7, once connected: a silent Redis costs each caller its own timeout, concurrently
    void aBlackHoledCallAnswersWithinTheCommandTimeoutWhateverTheConcurrency() throws Exception {
        FaultProxy proxy = proxy();
        Duration timeout = Duration.ofMillis(800);
        RedisLockClient lock = client(proxy, timeout);
        lock.ping();
        proxy.blackhole();
        ExecutorService pool = pool(8);
        AtomicLong slowest = new AtomicLong();
        List<Future<?>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String name = "busy:" + i;
            calls.add(pool.submit(() -> {
                long t0 = System.nanoTime();
                assertThatThrownBy(() -> lock.tryAcquire(name, Duration.ofSeconds(5), OverlapImpact.WASTED_WORK))
                        .isInstanceOf(LockUnavailableException.class);
                slowest.accumulateAndGet(System.nanoTime() - t0, Math::max);
            }));
        }
        for (Future<?> f : calls) {
            f.get(60, TimeUnit.SECONDS);
        }
        assertThat(Duration.ofNanos(slowest.get())).isLessThan(timeout.multipliedBy(3));
        proxy.heal();
    }

    @Test // issue 21 item 3: renew() waits one command timeout in all, also behind a stuck background renewal
    void renewAndReleaseAfterBehindAStuckRenewalTakeOneCommandTimeoutNotTwo() throws Exception {
        FaultProxy proxy = proxy();
        Duration timeout = Duration.ofSeconds(1);
        RedisLockClient lock = client(proxy, timeout);
        LockLease lease = lock.tryAcquire("stuck-renewal", Duration.ofSeconds(6), OverlapImpact.WASTED_WORK)
                .orElseThrow().keepAlive(() -> { });
        long stalledBefore = proxy.stalledReads();
        proxy.blackhole();
        // the watchdog's renewal (due a third into the term) is sent and stuck on the dark link
        await().atMost(Duration.ofSeconds(10)).until(() -> proxy.stalledReads() > stalledBefore);

        long t0 = System.nanoTime();
        assertThatThrownBy(lease::renew).isInstanceOf(LockUnavailableException.class);
        Duration renewTook = Duration.ofNanos(System.nanoTime() - t0);
        long t1 = System.nanoTime();
        assertThatThrownBy(() -> lease.releaseAfter(Duration.ofSeconds(1))).isInstanceOf(LockUnavailableException.class);
        Duration releaseTook = Duration.ofNanos(System.nanoTime() - t1);

        // One command timeout (+50 ms) is the promise; two would be 2 s. Half a timeout of slack for a busy machine.
        assertThat(renewTook).isGreaterThanOrEqualTo(timeout.minusMillis(50)).isLessThan(timeout.multipliedBy(3).dividedBy(2));
        assertThat(releaseTook).isLessThan(timeout.multipliedBy(3).dividedBy(2));
    }
}
