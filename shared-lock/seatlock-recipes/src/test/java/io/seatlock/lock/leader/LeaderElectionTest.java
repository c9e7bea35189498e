package io.seatlock.lock.leader;

import io.seatlock.lock.redis.RedisTimeouts;
import io.lettuce.core.RedisURI;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.LockClosedException;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.redis.lettuce.LettuceTransport;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.spi.LockSpec;
import io.seatlock.test.FaultProxy;
import io.seatlock.test.InMemoryLock;
import io.seatlock.test.ManualClock;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class LeaderElectionTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("LeaderElectionTest");

    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
    }

    /** Records each callback with the thread it ran on and whether that thread held the election's monitor. */
    private static final class Recorder implements Candidate {
        final List<String> calls = new CopyOnWriteArrayList<>();
        volatile LeaderElection election;

        @Override
        public void onGranted(FencingToken epoch) {
            record("granted " + epoch);
        }

        @Override
        public void onRevoked(FencingToken epoch) {
            record("revoked " + epoch);
        }

        private void record(String what) {
            Thread t = Thread.currentThread();
            calls.add(what + " on " + t.getName() + (Thread.holdsLock(election) ? " holding the election" : ""));
        }
    }

    /** Starts {@code a}, waits until it leads, then starts {@code b}; both closed after the test. */
    private FencingToken leaderThenFollower(LeaderElection a, LeaderElection b) {
        cleanup.add(a);
        cleanup.add(b);
        a.start();
        await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
        b.start();
        return a.epoch().orElseThrow();
    }

    private RedisLockClient client(FaultProxy proxy) {
        RedisLockClient client = RedisLockClient.over(
                LettuceTransport.standalone(RedisURI.create(proxy.host(), proxy.port()), RedisTimeouts.of(Duration.ofSeconds(1))),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), LockListener.NOOP);
        cleanup.add(client);
        return client;
    }

    /**
     * The application closes the lock client while an election on it campaigns, its grant on the wire: the grant that
     * lands as the client closes is released with it (no key waits out its lease), the election stops with its lock,
     * and the calls made meanwhile hear {@link LockClosedException}, nothing else.
     */
    @Test
    void closingTheLockUnderARunningElectionLeavesNothingBehind() throws Exception {
        FaultProxy proxy = new FaultProxy(servers.redis().host(), servers.redis().port());
        cleanup.add(proxy);
        RedisLockClient lock = client(proxy);
        lock.ping(); // connected: the campaign's grant is the call on the wire below
        proxy.delay(Duration.ofMillis(300));
        Recorder recorder = new Recorder();
        LeaderElection election = LeaderElection.forGroup(lock, "closing").candidate("a")
                .lease(Duration.ofSeconds(30)).retry(Duration.ofSeconds(1)).build(recorder);
        recorder.election = election;
        cleanup.add(election);
        election.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> proxy.sentByClients().contains("EVALSHA"));

        lock.close();

        String key = new RedisKeys(servers.keyPrefix()).lock(election.lockName());
        // the grant on the wire reaches Redis a delay after it left: no key then, nor for a while after
        await("no leader key left behind").during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
                .until(() -> servers.redis().<Long>with(r -> r.exists(key)) == 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> !election.isRunning());
        assertThat(election.isLeader()).isFalse();
        assertThat(recorder.calls).as("a term granted as the lock closed is revoked as well")
                .allMatch(call -> call.startsWith("granted") || call.startsWith("revoked"))
                .hasSize(recorder.calls.stream().anyMatch(call -> call.startsWith("granted")) ? 2 : 0);
        assertThatThrownBy(() -> lock.tryAcquire("after", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK))
                .isInstanceOf(LockClosedException.class);
    }

    @Test
    void anElectionWhoseLockCouldNeverBeTakenIsRefusedWhenMade() {
        InMemoryLock lock = new InMemoryLock(new ManualClock(), "a");
        Duration lease = Duration.ofSeconds(10);
        Duration retry = Duration.ofSeconds(1);
        // The leader holds "leader:<group>": a group of 200 characters names a lock of 207, which every campaign would
        // be refused, for ever, instead of once here.
        for (String group : new String[] {"x".repeat(LockSpec.MAX_NAME_LENGTH), "a{b}", " "}) {
            assertThatThrownBy(() -> LeaderElection.forGroup(lock, group).candidate("a")
                    .lease(lease).retry(retry).build(new Recorder()))
                    .as("group %s", group).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> LeaderElection.forGroup(lock, "g").candidate("a")
                .lease(lease).retry(lease).build(new Recorder()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shorter than the lease");
        String longest = "x".repeat(LockSpec.MAX_NAME_LENGTH - LeaderElection.lockNameOf("").length());
        LeaderElection election = LeaderElection.forGroup(lock, longest).candidate("a")
                .lease(lease).retry(retry).build(new Recorder());
        cleanup.add(election);
        election.start();
        await().atMost(Duration.ofSeconds(10)).until(election::isLeader);
        assertThat(lock.holder(LeaderElection.lockNameOf(longest))).contains("a");
    }

    /** Two candidates of group {@code g} on one in-memory lock: the first, started, leads; the second never ran. */
    private List<LeaderElection> leaderAndFollower() {
        InMemoryLock lock = new InMemoryLock(new ManualClock(), "a");
        LeaderElection leader = LeaderElection.forGroup(lock, "g").candidate("a")
                .lease(Duration.ofSeconds(10)).retry(Duration.ofSeconds(1)).build(new Recorder());
        LeaderElection follower = LeaderElection.forGroup(lock, "g").candidate("b")
                .lease(Duration.ofSeconds(10)).retry(Duration.ofSeconds(1)).build(new Recorder());
        cleanup.add(leader);
        leader.start();
        await().atMost(Duration.ofSeconds(10)).until(leader::isLeader);
        return List.of(leader, follower);
    }

    @Test
    void aFencedWriteMissingAPartIsRefusedAtOnceLeaderOrNot() {
        List<LeaderElection> both = leaderAndFollower();
        LeaderElection leader = both.get(0);
        LeaderElection follower = both.get(1);
        AtomicInteger admitted = new AtomicInteger();
        Fence counting = (connection, resource, token) -> admitted.incrementAndGet();
        for (LeaderElection election : List.of(leader, follower)) {
            assertThatThrownBy(() -> election.writeAsLeader(null, counting, epoch -> 1))
                    .isInstanceOf(NullPointerException.class).hasMessage("connection");
            assertThatThrownBy(() -> election.writeAsLeader(null, null, epoch -> 1))
                    .isInstanceOf(NullPointerException.class);
        }
        assertThat(admitted).as("nothing admitted").hasValue(0);
    }

    /** Not leading, wrote (even work that returns null) and refused as stale are three answers, not two. */
    @Test
    void aFencedWriteSaysWhetherItWroteInWhichEpochOrWasRefused() throws Exception {
        List<LeaderElection> both = leaderAndFollower();
        LeaderElection leader = both.get(0);
        LeaderElection follower = both.get(1);
        Connection connection = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> null); // the fences here never touch it
        List<FencingToken> admitted = new CopyOnWriteArrayList<>();
        Fence fence = (c, resource, token) -> admitted.add(token);

        LeaderWrite<Object> wroteNull = leader.writeAsLeader(connection, fence, epoch -> null);
        assertThat(wroteNull.wrote()).isTrue();
        assertThat(wroteNull.epoch()).isEqualTo(leader.epoch());
        assertThat(wroteNull.value()).isEmpty();
        LeaderWrite<Object> notLeading = follower.writeAsLeader(connection, fence, epoch -> "never");
        assertThat(notLeading.wrote()).isFalse();
        assertThat(notLeading.epoch()).isEmpty();
        assertThat(admitted).as("only the leader's epoch was admitted").containsExactly(leader.epoch().orElseThrow());

        Fence newerSeen = (c, resource, token) -> {
            throw new StaleFencingTokenException(resource, token, token.value() + 1);
        };
        assertThatThrownBy(() -> leader.writeAsLeader(connection, newerSeen, epoch -> "refused"))
                .isInstanceOf(StaleFencingTokenException.class);
    }

    @Test // GH-10 item 1: yield and close while a renewal waits on a black-holed Redis
    void yieldAndCloseDuringAStuckRenewalNeitherDeadlockNorHang() throws Exception {
        FaultProxy proxy = new FaultProxy(servers.redis().host(), servers.redis().port());
        cleanup.add(proxy);
        Recorder candidate = new Recorder();
        LeaderElection election = LeaderElection.forGroup(client(proxy), "stuck").candidate("replica-a")
                .lease(Duration.ofSeconds(3)).retry(Duration.ofMillis(100)).build(candidate);
        candidate.election = election;
        election.start();
        await().atMost(Duration.ofSeconds(10)).until(election::isLeader);
        FencingToken epoch = election.epoch().orElseThrow();

        proxy.blackhole();
        long stalled = proxy.stalledReads();
        // a renewal is now in flight and cannot come back (the old code held the lease's monitor here)
        await().atMost(Duration.ofSeconds(10)).until(() -> proxy.stalledReads() > stalled);

        ExecutorService pool = Executors.newFixedThreadPool(2);
        cleanup.add(pool::shutdownNow);
        Future<?> yielding = pool.submit(election::yieldLeadership);
        Future<?> closing = pool.submit(election::close);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            assertThat(threads.findDeadlockedThreads()).as("deadlocked threads").isNull();
            return yielding.isDone() && closing.isDone();
        });
        yielding.get(1, TimeUnit.SECONDS);
        closing.get(1, TimeUnit.SECONDS);
        assertThat(threads.findDeadlockedThreads()).isNull();

        assertThat(election.isLeader()).isFalse();
        assertThat(candidate.calls).containsExactly(
                "granted " + epoch + " on leader-callbacks-stuck",
                "revoked " + epoch + " on leader-callbacks-stuck");
        proxy.heal();
    }

    /**
     * Issue 21 item 9: a leader that crashes (its Redis link goes silent, it can neither renew nor release)
     * is replaced within the README's bound: lease + retry, plus one command timeout for an attempt in flight.
     */
    @Test
    void aCrashedLeaderIsReplacedWithinLeasePlusRetry() throws Exception {
        FaultProxy crashed = new FaultProxy(servers.redis().host(), servers.redis().port());
        cleanup.add(crashed);
        FaultProxy healthy = new FaultProxy(servers.redis().host(), servers.redis().port());
        cleanup.add(healthy);
        Duration lease = Duration.ofSeconds(3);
        Duration retry = Duration.ofMillis(300);
        LeaderElection a = LeaderElection.forGroup(client(crashed), "crash").candidate("a")
                .lease(lease).retry(retry).build(new Recorder());
        LeaderElection b = LeaderElection.forGroup(client(healthy), "crash").candidate("b")
                .lease(lease).retry(retry).build(new Recorder());
        FencingToken old = leaderThenFollower(a, b);

        crashed.blackhole();
        long crashedAt = System.nanoTime();
        await().atMost(Duration.ofSeconds(30)).until(b::isLeader);
        Duration takeover = Duration.ofNanos(System.nanoTime() - crashedAt);

        assertThat(b.epoch().orElseThrow().isNewerThan(old)).isTrue();
        // the lease cannot end sooner than its last renewal (at most a third of the lease before the crash) allows
        assertThat(takeover).isGreaterThan(lease.multipliedBy(2).dividedBy(3).minusMillis(100))
                .isLessThan(lease.plus(retry).plusSeconds(1)); // + one command timeout (1 s)
    }

    @Test // GH-20 item 4: hand-over without polling
    void aLeaderThatStepsDownIsReplacedAtOnceNotAtTheFollowersNextRetry() throws Exception {
        Duration lease = Duration.ofSeconds(30);
        Duration retry = Duration.ofSeconds(10);
        FaultProxy toA = new FaultProxy(servers.redis().host(), servers.redis().port());
        cleanup.add(toA);
        FaultProxy toB = new FaultProxy(servers.redis().host(), servers.redis().port());
        cleanup.add(toB);
        LeaderElection a = LeaderElection.forGroup(client(toA), "graceful").candidate("a")
                .lease(lease).retry(retry).build(new Recorder());
        LeaderElection b = LeaderElection.forGroup(client(toB), "graceful").candidate("b")
                .lease(lease).retry(retry).build(new Recorder());
        FencingToken old = leaderThenFollower(a, b);
        String lockKey = new RedisKeys(servers.keyPrefix()).lock(a.lockName());
        // the follower has marked the lock as waited for (the suffix the Redis lock appends to the owner token)
        await("the follower waits on the leader's release").atMost(Duration.ofSeconds(30))
                .until(() -> servers.redis().<String>with(r -> r.get(lockKey)).endsWith("|waited"));

        long steppedDownAt = System.nanoTime();
        a.close();
        await().atMost(Duration.ofSeconds(30)).until(b::isLeader);
        Duration handOver = Duration.ofNanos(System.nanoTime() - steppedDownAt);
        assertThat(b.epoch().orElseThrow().isNewerThan(old)).isTrue();
        // without the release's word the follower would campaign again only a retry (10 s) after its last try
        assertThat(handOver).as("graceful hand-over").isLessThan(retry.dividedBy(5));
    }

    @Test
    void aYieldedLeaderIsReplacedByAnotherCandidateWithANewerEpoch() throws Exception {
        FaultProxy proxy = new FaultProxy(servers.redis().host(), servers.redis().port());
        cleanup.add(proxy);
        RedisLockClient lock = client(proxy);
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        LeaderElection a = LeaderElection.forGroup(lock, "handover").candidate("a")
                .lease(Duration.ofSeconds(2)).retry(Duration.ofMillis(50)).build(first);
        LeaderElection b = LeaderElection.forGroup(lock, "handover").candidate("b")
                .lease(Duration.ofSeconds(2)).retry(Duration.ofMillis(50)).build(second);
        first.election = a;
        second.election = b;
        FencingToken old = leaderThenFollower(a, b);
        assertThat(b.isLeader()).isFalse();

        a.yieldLeadership();
        await().atMost(Duration.ofSeconds(10)).until(() -> b.isLeader() || a.isLeader());
        LeaderElection now = b.isLeader() ? b : a;
        assertThat(now.epoch().orElseThrow().isNewerThan(old)).isTrue();
        assertThat(first.calls).first().asString().startsWith("granted " + old);
        assertThat(first.calls).anyMatch(c -> c.startsWith("revoked " + old));
        assertThat(first.calls).noneMatch(c -> c.contains("holding the election"));
    }

    /**
     * A leader that yields campaigns again only a retry after its release, so that another candidate takes over. Before,
     * its campaign thread tried again at its next wake-up, which could come right after the release: then the yielding
     * leader took its own lock back (seen in app-jobs' JobsReplicasTest). Here it is the only candidate, so nobody may
     * lead for a retry; the yield comes late in the campaign's pause, where the old code woke within a fifth of a retry.
     */
    @Test
    void aYieldingLeaderCampaignsAgainOnlyARetryAfterItsRelease() throws Exception {
        RedisLockClient redis = RedisLockClient.over(
                LettuceTransport.standalone(servers.redis().uri(), RedisTimeouts.of(Duration.ofSeconds(2))),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), LockListener.NOOP);
        cleanup.add(redis);
        Duration retry = Duration.ofSeconds(2);
        List<Long> grantedAt = new CopyOnWriteArrayList<>();
        LeaderElection alone = LeaderElection.forGroup(redis, "quiet").candidate("alone")
                .lease(Duration.ofSeconds(10)).retry(retry).build(new Candidate() {
            @Override
            public void onGranted(FencingToken epoch) {
                grantedAt.add(System.nanoTime());
            }

            @Override
            public void onRevoked(FencingToken epoch) {
            }
        });
        cleanup.add(alone);
        alone.start();
        await().atMost(Duration.ofSeconds(10)).until(alone::isLeader);
        FencingToken first = alone.epoch().orElseThrow();
        // The campaign, leading, wakes every retry from its grant: yield at four fifths of the first pause.
        long yieldAt = grantedAt.get(0) + retry.multipliedBy(4).dividedBy(5).toNanos();
        TimeUnit.NANOSECONDS.sleep(Math.max(0, yieldAt - System.nanoTime()));

        long yieldedAt = System.nanoTime();
        alone.yieldLeadership();

        await("nobody leads for half a retry after the release").during(retry.dividedBy(2)).atMost(retry)
                .until(() -> !alone.isLeader() && redis.holder(alone.lockName()).isEmpty());
        await().atMost(Duration.ofSeconds(30)).until(alone::isLeader);
        assertThat(Duration.ofNanos(grantedAt.get(1) - yieldedAt)).as("led again after its yield").isGreaterThanOrEqualTo(retry);
        assertThat(alone.epoch().orElseThrow().isNewerThan(first)).isTrue();
    }

    @Test // issue 21 item 4: the yielding leader hears onRevoked before the next leader is granted
    void aYieldingLeaderHearsOnRevokedBeforeAnotherReplicaTakesOver() throws Exception {
        RedisLockClient lock = RedisLockClient.over(
                LettuceTransport.standalone(servers.redis().uri(), RedisTimeouts.of(Duration.ofSeconds(2))),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()).withInstanceId("a"), LockListener.NOOP);
        RedisLockClient otherReplica = RedisLockClient.over(
                LettuceTransport.standalone(servers.redis().uri(), RedisTimeouts.of(Duration.ofSeconds(2))),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()).withInstanceId("b"), LockListener.NOOP);
        cleanup.add(lock);
        cleanup.add(otherReplica);
        List<String> order = new CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch slowGrant = new java.util.concurrent.CountDownLatch(1);
        // a campaigns again only after 9 s, so the one to take over after its yield is b
        LeaderElection a = LeaderElection.forGroup(lock, "slow-grant").candidate("a")
                .lease(Duration.ofSeconds(10)).retry(Duration.ofSeconds(9)).build(new Candidate() {
                    @Override
                    public void onGranted(FencingToken epoch) {
                        order.add("a granted");
                        try {
                            slowGrant.await(30, TimeUnit.SECONDS); // a slow onGranted, still running at the yield
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }

                    @Override
                    public void onRevoked(FencingToken epoch) {
                        order.add("a revoked");
                    }
                });
        cleanup.add(a);
        a.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> order.contains("a granted"));
        LeaderElection b = LeaderElection.forGroup(otherReplica, "slow-grant").candidate("b")
                .lease(Duration.ofSeconds(10)).retry(Duration.ofMillis(50)).build(new Candidate() {
                    @Override
                    public void onGranted(FencingToken epoch) {
                        order.add("b granted");
                    }

                    @Override
                    public void onRevoked(FencingToken epoch) {
                        order.add("b revoked");
                    }
                });
        cleanup.add(b);
        b.start();

        ExecutorService yielder = Executors.newSingleThreadExecutor();
        Future<?> yielded = yielder.submit(a::yieldLeadership);
        // While a's onGranted still runs, a has not heard onRevoked, so its lock must still stand.
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                .until(() -> lock.holder("leader:slow-grant").orElse("").equals("a") && !order.contains("b granted"));
        slowGrant.countDown();
        yielded.get(10, TimeUnit.SECONDS);
        yielder.shutdown();
        await().atMost(Duration.ofSeconds(10)).until(() -> order.contains("b granted"));
        assertThat(order).containsSubsequence("a granted", "a revoked", "b granted");
    }

    /**
     * A campaign attempt that fails with an Error (here a class missing from the class path, thrown by the lock)
     * is logged and tried again. Before, the Error ended the campaign thread: the candidate never led again while
     * {@code isRunning()} still said it campaigned.
     */
    @Test
    void aCampaignOutlivesAnErrorFromTheLock() throws Exception {
        RedisLockClient redis = RedisLockClient.over(
                LettuceTransport.standalone(servers.redis().uri(), RedisTimeouts.of(Duration.ofSeconds(2))),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()).withInstanceId("a"), LockListener.NOOP);
        cleanup.add(redis);
        AtomicInteger attempts = new AtomicInteger();
        DistributedLock failsFirst = new DistributedLock() {
            @Override
            public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
                if (attempts.incrementAndGet() == 1) {
                    throw new NoClassDefFoundError("io/example/Missing");
                }
                return redis.tryAcquire(name, ttl, impact);
            }

            @Override
            public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
                    throws InterruptedException {
                return redis.acquire(name, ttl, impact, maxWait);
            }

            @Override
            public Optional<Duration> remainingTtl(String name) {
                return redis.remainingTtl(name);
            }

            @Override
            public Optional<String> holder(String name) {
                return redis.holder(name);
            }

            @Override
            public Set<String> heldNames(String namePrefix) {
                return redis.heldNames(namePrefix);
            }

            @Override
            public Set<String> held(Collection<String> names) {
                return redis.held(names);
            }
        };
        Recorder recorder = new Recorder();
        LeaderElection election = LeaderElection.forGroup(failsFirst, "survivor").candidate("a")
                .lease(Duration.ofSeconds(3)).retry(Duration.ofMillis(50)).build(recorder);
        recorder.election = election;
        cleanup.add(election);
        election.start();

        await().atMost(Duration.ofSeconds(10)).until(election::isLeader);
        assertThat(attempts).hasValueGreaterThanOrEqualTo(2);
        assertThat(redis.holder(election.lockName())).hasValue("a");
        assertThat(recorder.calls).singleElement().asString().startsWith("granted ");
    }
}
