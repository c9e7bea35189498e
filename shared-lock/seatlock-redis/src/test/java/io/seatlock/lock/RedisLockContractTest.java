package io.seatlock.lock;

import io.seatlock.lock.spi.LeaseTiming;
import io.seatlock.lock.redis.TestTransports;
import io.seatlock.test.DistributedLockContract;
import io.seatlock.lock.redis.RedisKeys;
import io.lettuce.core.RedisURI;
import io.seatlock.lock.fencing.PostgresFence;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.test.FaultProxy;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The published contract ({@link DistributedLockContract}) and the Redis lock's own cases, against a real
 * Redis (and a real PostgreSQL for the fence).
 */
class RedisLockContractTest extends DistributedLockContract {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("RedisLockContractTest");

    private static final Duration LONG = Duration.ofSeconds(30);
    private final CountingListener counts = new CountingListener();
    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private RedisLockClient lock;

    private RedisLockClient otherReplica;

    @BeforeEach
    void setUp() {
        lock = newClient("a", counts);
        otherReplica = newClient("b", LockListener.NOOP);
    }

    @Override
    protected DistributedLock lock() {
        return lock;
    }

    @Override
    protected DistributedLock otherReplica() {
        return otherReplica;
    }


    @Override
    protected void takeAway(String name) {
        servers.redis().with(r -> r.del(key(name)));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : cleanup) {
            c.close();
        }
    }

    private RedisLockClient newClient(String instance, LockListener listener) {
        RedisLockClient client = TestTransports.standalone(servers.redis().uri(), Duration.ofSeconds(2),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()).withInstanceId(instance), listener);
        cleanup.add(client);
        return client;
    }

    private String key(String name) {
        return new RedisKeys(servers.keyPrefix()).lock(name);
    }

    private String valueOf(String name) {
        return servers.redis().with(r -> r.get(key(name)));
    }

    private long pttl(String name) {
        return servers.redis().with(r -> r.pttl(key(name)));
    }

    private Set<String> keys() {
        return Set.copyOf(servers.redis().with(r -> r.keys(servers.keyPrefix() + "*")));
    }

    private String counter(String counterKey) {
        return servers.redis().with(r -> r.get(counterKey));
    }

    @Test
    void lockIsCreatedWithOwnerTokenAndTtl() {
        LockLease lease = lock.tryAcquire("job:report", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK).orElseThrow();

        assertThat(valueOf("job:report")).isEqualTo(lease.ownerToken()).endsWith("@a").hasSizeGreaterThan(36);
        assertThat(pttl("job:report")).isBetween(1L, 10_000L);
        assertThat(lock.remainingTtl("job:report")).get().matches(d -> d.toMillis() <= 10_000 && d.toMillis() > 0);
        assertThat(lease.isValid()).isTrue();
        assertThat(lease.release()).isEqualTo(ReleaseOutcome.RELEASED);
        assertThat(valueOf("job:report")).isNull();
        assertThat(lock.remainingTtl("job:report")).isEmpty();
    }

    @Test
    void secondLockIsRefusedWhileHeldEvenFromAnotherReplica() {
        RedisLockClient other = newClient("b", LockListener.NOOP);
        try (LockLease held = lock.tryAcquire("seat:x:1A", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            assertThat(other.tryAcquire("seat:x:1A", LONG, OverlapImpact.BROKEN_PROMISE)).isEmpty();
            assertThat(lock.tryAcquire("seat:x:1A", LONG, OverlapImpact.BROKEN_PROMISE)).isEmpty();
            assertThat(valueOf("seat:x:1A")).isEqualTo(held.ownerToken());
        }
        assertThat(counts.busy).hasValue(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"replica-ü", "replica-座"}) // within Latin-1 (a token of one byte per character), beyond it
    void aNameAndAnInstanceOutsideAsciiAreSentAsUtf8(String instance) {
        String name = "sitz:Zürich:14C-ø";
        RedisLockClient other = newClient(instance, LockListener.NOOP);
        LockLease held = other.tryAcquire(name, LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow();

        assertThat(held.ownerToken()).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}@" + instance);
        assertThat(valueOf(name)).isEqualTo(held.ownerToken()); // as any other client reads it
        assertThat(lock.tryAcquire(name, LONG, OverlapImpact.BROKEN_PROMISE)).isEmpty();
        assertThat(other.heldNames("sitz:Zür")).containsExactly(name);
        assertThat(held.renew(LONG)).isTrue(); // the owner compare inside the scripts matches the same bytes
        assertThat(held.release()).isEqualTo(ReleaseOutcome.RELEASED);
        assertThat(valueOf(name)).isNull();
    }

    @Test
    void independentNamesAreIndependent() {
        LockLease one = lock.tryAcquire("a:1", LONG, OverlapImpact.WASTED_WORK).orElseThrow();
        LockLease two = lock.tryAcquire("a:2", LONG, OverlapImpact.WASTED_WORK).orElseThrow();
        assertThat(valueOf("a:1")).isEqualTo(one.ownerToken());
        assertThat(valueOf("a:2")).isEqualTo(two.ownerToken());
        assertThat(lock.heldLeases()).hasSize(2);
        assertThat(lock.heldNames("a:")).containsExactlyInAnyOrder("a:1", "a:2");
        assertThat(lock.heldNames("b:")).isEmpty();
        assertThat(lock.held(List.of("a:1", "a:3", "b:1"))).containsExactly("a:1");
        assertThat(lock.held(List.of())).isEmpty();
    }

    @Test
    void relockAfterUnlockAndAfterExpiry() {
        for (int i = 0; i < 10; i++) {
            LockLease lease = lock.tryAcquire("loop", LONG, OverlapImpact.WASTED_WORK).orElseThrow();
            assertThat(lock.tryAcquire("loop", LONG, OverlapImpact.WASTED_WORK)).isEmpty();
            lease.release();
        }
        LockLease shortLease = lock.tryAcquire("expiring", Duration.ofMillis(100), OverlapImpact.WASTED_WORK).orElseThrow();
        await().atMost(Duration.ofSeconds(2)).until(() -> valueOf("expiring") == null);
        assertThat(shortLease.isValid()).isFalse();
        assertThat(lock.tryAcquire("expiring", LONG, OverlapImpact.WASTED_WORK)).isPresent();
    }

    @Test
    void manyThreadsIncrementingUnderTheLockLoseNoUpdate() throws Exception {
        int threads = 8;
        int rounds = 25;
        String counterKey = servers.keyPrefix() + "counter";
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<RedisLockClient> replicas = List.of(lock, newClient("b", LockListener.NOOP));
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            RedisLockClient replica = replicas.get(t % 2);
            done.add(pool.submit(() -> {
                for (int i = 0; i < rounds; i++) {
                    try (LockLease lease = replica.acquire("counter", LONG, OverlapImpact.BROKEN_PROMISE,
                            Duration.ofSeconds(30))) {
                        // read-modify-write across two round trips: any overlap loses an update
                        String seen = servers.redis().with(r -> r.get(counterKey));
                        long next = (seen == null ? 0 : Long.parseLong(seen)) + 1;
                        servers.redis().with(r -> r.set(counterKey, Long.toString(next)));
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertThat(counter(counterKey)).isEqualTo(Integer.toString(threads * rounds));
    }

    @Test
    void renewExtendsRepeatedlyAndFailsAfterReleaseOrExpiry() {
        LockLease lease = lock.tryAcquire("renew", Duration.ofSeconds(2), OverlapImpact.WASTED_WORK).orElseThrow();
        for (int i = 0; i < 3; i++) {
            assertThat(lease.renew(Duration.ofSeconds(20))).isTrue();
            assertThat(pttl("renew")).isGreaterThan(15_000L);
        }
        lease.release();
        assertThatThrownBy(() -> lease.renew(Duration.ofSeconds(5)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("released");

        LockLease stale = lock.tryAcquire("renew", Duration.ofMillis(100), OverlapImpact.WASTED_WORK).orElseThrow();
        await().atMost(Duration.ofSeconds(2)).until(() -> valueOf("renew") == null);
        LockLease newHolder = newClient("b", LockListener.NOOP)
                .tryAcquire("renew", Duration.ofSeconds(3), OverlapImpact.WASTED_WORK).orElseThrow();
        assertThat(stale.renew(Duration.ofMinutes(5))).isFalse();
        assertThat(stale.isLost()).isTrue();
        assertThat(valueOf("renew")).isEqualTo(newHolder.ownerToken());
        assertThat(pttl("renew")).isLessThanOrEqualTo(3_000L);
    }

    @Test
    void releaseAfterExpiryDoesNotDeleteTheNewHoldersLock() {
        LockLease stale = lock.tryAcquire("seat:x:14C", Duration.ofMillis(100), OverlapImpact.BROKEN_PROMISE).orElseThrow();
        await().atMost(Duration.ofSeconds(2)).until(() -> valueOf("seat:x:14C") == null);
        LockLease newHolder = newClient("b", LockListener.NOOP)
                .tryAcquire("seat:x:14C", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow();

        assertThat(stale.release()).isEqualTo(ReleaseOutcome.LOST);
        assertThat(valueOf("seat:x:14C")).isEqualTo(newHolder.ownerToken());
        assertThat(counts.lost).hasValue(1);
        assertThat(stale.release()).isEqualTo(ReleaseOutcome.ALREADY_RELEASED);
    }

    private String decidedKey(String name) {
        return new RedisKeys(servers.keyPrefix()).decided(name);
    }

    private long markers(String name) {
        return servers.redis().with(r -> r.exists(decidedKey(name)));
    }

    @Test
    void aLockReleasedAsDecidedTurnsLaterCallersAwayInOneRoundTripWithoutTakingIt() {
        AcquireAttempt first = lock.tryAcquireUnlessDecided("seat:x:2B", LONG, OverlapImpact.BROKEN_PROMISE);
        LockLease lease = first.lease().orElseThrow();
        assertThat(first.isDecided()).isFalse();

        AcquireAttempt busy = newClient("b", LockListener.NOOP)
                .tryAcquireUnlessDecided("seat:x:2B", LONG, OverlapImpact.BROKEN_PROMISE);
        assertThat(busy.lease()).isEmpty();
        assertThat(busy.isDecided()).isFalse();
        assertThat(busy.busyFor()).hasValueSatisfying(left -> assertThat(left).isBetween(Duration.ofSeconds(1), LONG));

        assertThat(lease.releaseDecided(Duration.ofMinutes(10))).isEqualTo(ReleaseOutcome.RELEASED);
        assertThat(valueOf("seat:x:2B")).as("the lock itself is gone").isNull();
        long markerTtl = servers.redis().with(r -> r.pttl(decidedKey("seat:x:2B")));
        assertThat(markerTtl).isBetween(1L, 600_000L);

        AcquireAttempt later = lock.tryAcquireUnlessDecided("seat:x:2B", LONG, OverlapImpact.BROKEN_PROMISE);
        assertThat(later.isDecided()).isTrue();
        assertThat(later.lease()).isEmpty();
        assertThat(valueOf("seat:x:2B")).as("nothing taken").isNull();
        assertThat(counts.decided).hasValue(1);
        // The plain acquire knows nothing of markers.
        assertThat(lock.tryAcquire("seat:x:2B", LONG, OverlapImpact.BROKEN_PROMISE)).isPresent();
    }

    @Test
    void aLostLeaseReleasedAsDecidedLeavesTheMarkerButNotTheNewHoldersLock() {
        LockLease stale = lock.tryAcquireUnlessDecided("seat:x:3C", Duration.ofMillis(100), OverlapImpact.BROKEN_PROMISE)
                .lease().orElseThrow();
        await().atMost(Duration.ofSeconds(2)).until(() -> valueOf("seat:x:3C") == null);
        LockLease newHolder = newClient("b", LockListener.NOOP)
                .tryAcquire("seat:x:3C", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow();

        assertThatThrownBy(() -> stale.releaseDecided(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThat(markers("seat:x:3C")).as("bad input writes nothing").isZero();
        assertThat(stale.releaseDecided(Duration.ofMinutes(1))).isEqualTo(ReleaseOutcome.LOST);
        assertThat(valueOf("seat:x:3C")).isEqualTo(newHolder.ownerToken());
        assertThat(markers("seat:x:3C")).isEqualTo(1L);
    }

    @Test
    void fencingTokensStrictlyIncreaseAndTheStaleOneIsRejectedByPostgres() throws Exception {
        long previous = 0;
        for (int i = 0; i < 5; i++) {
            try (LockLease lease = lock.tryAcquire("leader", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
                assertThat(lease.fencingToken().value()).isGreaterThan(previous);
                previous = lease.fencingToken().value();
            }
        }
        LockLease stale = lock.tryAcquire("leader", Duration.ofMillis(100), OverlapImpact.BROKEN_PROMISE).orElseThrow();
        await().atMost(Duration.ofSeconds(2)).until(() -> valueOf("leader") == null);
        LockLease takeover = newClient("b", LockListener.NOOP)
                .tryAcquire("leader", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow();
        assertThat(takeover.fencingToken().isNewerThan(stale.fencingToken())).isTrue();

        PostgresFence fence = new PostgresFence(counts);
        try (Connection c = servers.postgres().connect(servers.database()); Statement s = c.createStatement()) {
            s.execute(new String(getClass().getClassLoader().getResourceAsStream(PostgresFence.DDL_RESOURCE)
                    .readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            c.setAutoCommit(false); // the fence admits only in the guarded write's transaction
            fence.admit(c, "leader", takeover.fencingToken());
            fence.admit(c, "leader", takeover.fencingToken()); // the same grant may write again
            assertThatThrownBy(() -> fence.admit(c, "leader", stale.fencingToken()))
                    .isInstanceOf(StaleFencingTokenException.class)
                    .hasMessageContaining(Long.toString(takeover.fencingToken().value()));
            var rs = s.executeQuery("SELECT token FROM lock_fences WHERE resource = 'leader'");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(takeover.fencingToken().value());
        }
        assertThat(counts.fencingRejected).hasValue(1);
    }

    @Test
    void fenceCountersExpireAnHourAfterTheirLastLeaseInsteadOfPilingUp() {
        lock.tryAcquire("short-lived", Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE).orElseThrow().release();
        long fenceTtl = servers.redis().with(r -> r.pttl(new RedisKeys(servers.keyPrefix()).fence("short-lived")));
        assertThat(fenceTtl).isBetween(Duration.ofMinutes(59).toMillis(), Duration.ofMinutes(61).toMillis());
    }

    @Test
    void fencingTokensKeepGrowingWhenRedisForgetsTheCounter() {
        long before;
        try (LockLease lease = lock.tryAcquire("forgetful", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            before = lease.fencingToken().value();
        }
        servers.redis().with(r -> r.del(new RedisKeys(servers.keyPrefix()).fence("forgetful")));
        try (LockLease lease = lock.tryAcquire("forgetful", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            assertThat(lease.fencingToken().value()).isGreaterThan(before);
        }
    }

    @Test
    void keepAliveHoldsTheLockPastItsTtlAndStopsAfterRelease() {
        LockLease lease = lock.tryAcquire("long-job", Duration.ofMillis(300), OverlapImpact.WASTED_WORK).orElseThrow()
                .keepAlive(() -> { });
        await().atLeast(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> counts.renewed.get() >= 6);
        assertThat(valueOf("long-job")).isEqualTo(lease.ownerToken());
        assertThat(lease.isValid()).isTrue();

        lease.release();
        int renewalsAtRelease = counts.renewed.get();
        LockLease next = lock.tryAcquire("long-job", Duration.ofMillis(300), OverlapImpact.WASTED_WORK).orElseThrow();
        await().atMost(Duration.ofSeconds(3)).until(() -> valueOf("long-job") == null); // nobody renews it
        assertThat(counts.renewed.get()).isEqualTo(renewalsAtRelease);
        assertThat(next.isValid()).isFalse();
    }

    @Test
    void lostLeaseCallbackFiresWhenTheKeyIsDeletedBehindTheHoldersBack() throws Exception {
        Duration ttl = Duration.ofMillis(900);
        long acquiredAt = System.nanoTime();
        LockLease lease = lock.tryAcquire("victim", ttl, OverlapImpact.BROKEN_PROMISE).orElseThrow();
        CountDownLatch lost = new CountDownLatch(1);
        AtomicLong lostAt = new AtomicLong();
        lease.keepAlive(() -> {
            lostAt.set(System.nanoTime());
            lost.countDown();
        });
        servers.redis().with(r -> r.del(key("victim")));

        assertThat(lost.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(lostAt.get() - acquiredAt).isLessThan(ttl.toNanos());
        assertThat(lease.isLost()).isTrue();
        assertThat(lease.isValid()).isFalse();
        assertThat(counts.lost).hasValue(1);
    }

    @Test
    void leaseTurnsInvalidOnTheLocalDeadlineAndReportsLostWhenRedisIsUnreachable() throws Exception {
        FaultProxy proxy = new FaultProxy(servers.redis().host(), servers.redis().port());
        cleanup.add(proxy);
        RedisLockClient viaProxy = TestTransports.standalone(RedisURI.create(proxy.host(), proxy.port()),
                Duration.ofMillis(200), RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), counts);
        cleanup.add(viaProxy);
        TestTransports.warmedUp(viaProxy);
        Duration ttl = Duration.ofMillis(1200);
        long acquiredAt = System.nanoTime();
        CountDownLatch lost = new CountDownLatch(1);
        LockLease lease = viaProxy.tryAcquire("cut-off", ttl, OverlapImpact.BROKEN_PROMISE).orElseThrow()
                .keepAlive(lost::countDown);
        proxy.down();

        assertThat(lost.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(System.nanoTime() - acquiredAt).isLessThan(ttl.toNanos());
        assertThat(lease.isValid()).isFalse();
        assertThat(counts.renewalFailed.get()).isPositive();
        assertThatThrownBy(() -> viaProxy.tryAcquire("other", ttl, OverlapImpact.WASTED_WORK))
                .isInstanceOf(LockUnavailableException.class).hasMessageContaining("Redis unavailable");
    }

    @Test
    void redisDownRaisesATypedExceptionWithinTheTimeout() throws Exception {
        FaultProxy proxy = new FaultProxy(servers.redis().host(), servers.redis().port());
        cleanup.add(proxy);
        RedisLockClient viaProxy = TestTransports.standalone(RedisURI.create(proxy.host(), proxy.port()),
                Duration.ofMillis(300), RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), counts);
        cleanup.add(viaProxy);
        TestTransports.warmedUp(viaProxy);
        int unavailableBefore = counts.unavailable.get();
        proxy.blackhole();

        long start = System.nanoTime();
        assertThatThrownBy(() -> viaProxy.tryAcquire("hang", LONG, OverlapImpact.WASTED_WORK))
                .isInstanceOf(LockUnavailableException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(counts.unavailable.get()).isGreaterThan(unavailableBefore);
        proxy.heal();
    }

    @Test
    void scriptFlushIsSurvived() {
        lock.tryAcquire("flush", LONG, OverlapImpact.WASTED_WORK).orElseThrow().release();
        servers.redis().with(r -> r.scriptFlush());
        LockLease lease = lock.tryAcquire("flush", LONG, OverlapImpact.WASTED_WORK).orElseThrow();
        assertThat(lease.renew()).isTrue();
        assertThat(lease.release()).isEqualTo(ReleaseOutcome.RELEASED);
        assertThat(valueOf("flush")).isNull();
    }

    @Test
    void blockingAcquireGivesUpWithinItsWaitAndGetsTheLockOnceFree() throws Exception {
        LockLease holder = newClient("b", LockListener.NOOP)
                .tryAcquire("queue", LONG, OverlapImpact.WASTED_WORK).orElseThrow();
        long start = System.nanoTime();
        assertThatThrownBy(() -> lock.acquire("queue", LONG, OverlapImpact.WASTED_WORK, Duration.ofMillis(300)))
                .isInstanceOf(LockNotAcquiredException.class).hasMessageContaining("queue");
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(300)).isLessThan(Duration.ofSeconds(10)); // gave up, did not hang
        assertThat(counts.attempts.get()).isLessThan(40); // backed off, did not spin

        ExecutorService pool = Executors.newSingleThreadExecutor();
        Future<LockLease> waiting = pool.submit(() ->
                lock.acquire("queue", LONG, OverlapImpact.WASTED_WORK, Duration.ofSeconds(10)));
        holder.release();
        assertThat(waiting.get(5, TimeUnit.SECONDS).isValid()).isTrue();
        pool.shutdown();
    }

    @Test
    void blockingAcquireIsInterruptible() throws Exception {
        newClient("b", LockListener.NOOP).tryAcquire("stuck", LONG, OverlapImpact.WASTED_WORK).orElseThrow();
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> lock.acquire("stuck", LONG, OverlapImpact.WASTED_WORK, Duration.ofSeconds(30)))
                .isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).isFalse();
    }

    @Test
    void executeLockedRunsOnceReleasesAndReportsBusy() {
        TaskResult<Long> token = lock.executeLocked("task", LONG, OverlapImpact.BROKEN_PROMISE, lease -> {
            assertThat(valueOf("task")).isEqualTo(lease.ownerToken());
            TaskResult<Long> busy = lock.executeLocked("task", LONG, OverlapImpact.BROKEN_PROMISE, inner -> 1L);
            assertThat(busy.wasExecuted()).isFalse();
            assertThat(busy.result()).isNull();
            return lease.fencingToken().value();
        });
        assertThat(token.wasExecuted()).isTrue();
        assertThat(token.result()).isPositive();
        assertThat(valueOf("task")).isNull();
        assertThatThrownBy(() -> lock.executeLocked("task", LONG, OverlapImpact.WASTED_WORK, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("task");
        assertThatThrownBy(() -> lock.executeLocked("task", LONG, OverlapImpact.WASTED_WORK, lease -> {
            throw new IllegalStateException("boom");
        })).hasMessage("boom");
        assertThat(valueOf("task")).isNull();
    }

    @Test // GH-10 item 11: a task that returns null is told apart from a busy lock
    void executeLockedTellsATaskThatReturnedNullFromABusyLock() {
        AtomicInteger runs = new AtomicInteger();
        TaskResult<String> ran = lock.executeLocked("nullable", LONG, OverlapImpact.WASTED_WORK, lease -> {
            runs.incrementAndGet();
            return null;
        });
        assertThat(ran.wasExecuted()).isTrue();
        assertThat(ran.result()).isNull();

        try (LockLease held = newClient("b", LockListener.NOOP)
                .tryAcquire("nullable", LONG, OverlapImpact.WASTED_WORK).orElseThrow()) {
            TaskResult<String> busy = lock.executeLocked("nullable", LONG, OverlapImpact.WASTED_WORK, lease -> {
                runs.incrementAndGet();
                return null;
            });
            assertThat(busy.wasExecuted()).isFalse();
            assertThat(valueOf("nullable")).isEqualTo(held.ownerToken());
        }
        assertThat(runs).hasValue(1);
    }

    @Test
    void executeLockedInterruptsTheTaskAndThrowsWhenTheLeaseIsLost() {
        assertThatThrownBy(() -> lock.executeLocked("doomed", Duration.ofMillis(600), OverlapImpact.BROKEN_PROMISE,
                lease -> {
                    servers.redis().with(r -> r.del(key("doomed")));
                    new CountDownLatch(1).await(10, TimeUnit.SECONDS); // ends by interrupt when the loss is seen
                    return "finished";
                })).isInstanceOf(LockLostException.class).hasMessageContaining("doomed");
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "has{brace}", "tab\there"})
    void badNamesAreRejectedAndWriteNothing(String name) {
        Set<String> keysBefore = keys();
        assertThatThrownBy(() -> lock.tryAcquire(name, LONG, OverlapImpact.WASTED_WORK))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lock name");
        assertThat(keysBefore).as("no new Redis keys (some may expire meanwhile)").containsAll(keys());
    }

    @Test
    void badTtlsImpactsAndOversizedNamesAreRejected() {
        assertThatThrownBy(() -> lock.tryAcquire("x".repeat(201), LONG, OverlapImpact.WASTED_WORK))
                .hasMessageContaining("at most 200");
        assertThatThrownBy(() -> lock.tryAcquire(null, LONG, OverlapImpact.WASTED_WORK))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> lock.tryAcquire("x", Duration.ZERO, OverlapImpact.WASTED_WORK))
                .hasMessageContaining("ttl must be positive");
        assertThatThrownBy(() -> lock.tryAcquire("x", Duration.ofSeconds(-5), OverlapImpact.WASTED_WORK))
                .hasMessageContaining("ttl must be positive");
        assertThatThrownBy(() -> lock.tryAcquire("x", Duration.ofDays(400), OverlapImpact.WASTED_WORK))
                .hasMessageContaining("exceeds the maximum");
        assertThatThrownBy(() -> lock.tryAcquire("x", LONG, null)).hasMessageContaining("overlap impact");
        // GH-10 item 3: a ttl no longer than the 1 ms safety margin could never be valid
        assertThatThrownBy(() -> lock.tryAcquire("x", Duration.ofMillis(1), OverlapImpact.WASTED_WORK))
                .isInstanceOf(LeaseTooShortException.class).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("safety margin");
        RedisLockClient wideMargin = TestTransports.standalone(servers.redis().uri(), Duration.ofSeconds(2),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()).withInstanceId("a")
                        .withTiming(new LeaseTiming(0.01, Duration.ofMillis(50), Duration.ofMillis(10),
                        Duration.ofMillis(100))), counts);
        cleanup.add(wideMargin);
        assertThatThrownBy(() -> wideMargin.tryAcquire("x", Duration.ofMillis(50), OverlapImpact.WASTED_WORK))
                .isInstanceOf(LeaseTooShortException.class).hasMessageContaining("PT0.05S");
        try (LockLease held = lock.tryAcquire("y", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK).orElseThrow()) {
            assertThatThrownBy(() -> held.renew(Duration.ofMillis(1))).isInstanceOf(LeaseTooShortException.class);
            assertThat(held.isValid()).isTrue();
        }
        assertThat(counts.attempts).as("only the one valid attempt was sent").hasValue(1);
        assertThatThrownBy(() -> lock.acquire("x", LONG, OverlapImpact.WASTED_WORK, Duration.ofSeconds(-1)))
                .hasMessageContaining("maxWait");
        assertThat(valueOf("x")).isNull();
    }
}
