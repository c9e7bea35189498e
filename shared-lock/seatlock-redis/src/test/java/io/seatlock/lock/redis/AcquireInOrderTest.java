package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.CountingListener;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.FaultProxy;
import io.seatlock.test.ReplicaCrowd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code acquireInOrder} on Redis: waiters of several replicas get the lock in their order of arrival; one that gives
 * up leaves the line; one whose process died holds the line up no longer than its life; a crowd of 200 in line hands
 * over with no overlap and none left waiting past its maxWait.
 */
class AcquireInOrderTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("AcquireInOrderTest");

    private static final Duration LONG = Duration.ofSeconds(30);
    private final List<AutoCloseable> made = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : made) {
            c.close();
        }
    }

    private RedisLockClient replica(String id) {
        return replica(id, servers.redis().host(), servers.redis().port());
    }

    private RedisLockClient replica(String id, String host, int port) {
        RedisLockClient client = TestTransports.standalone(RedisURI.create(host, port), Duration.ofSeconds(2),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()).withInstanceId(id), new CountingListener());
        made.add(0, client);
        return client;
    }

    private long inLine(String name) {
        return servers.redis().with(r -> r.zcard(new RedisKeys(servers.keyPrefix()).line(name)));
    }

    private static CompletableFuture<LockLease> waiting(DistributedLock lock, String name, Duration maxWait) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return lock.acquireInOrder(name, LONG, OverlapImpact.BROKEN_PROMISE, maxWait);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void waitersOfSeveralReplicasGetTheLockInTheirOrderOfArrival() throws Exception {
        RedisLockClient holder = replica("holder");
        List<RedisLockClient> replicas = List.of(replica("r0"), replica("r1"), replica("r2"));
        LockLease held = holder.tryAcquire("line", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow();
        List<Integer> granted = new CopyOnWriteArrayList<>();
        List<Long> tokens = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Void>> waiters = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            int arrival = i;
            RedisLockClient replica = replicas.get((i * 2) % 3); // arrivals alternate between replicas, not in order
            waiters.add(waiting(replica, "line", LONG).thenAccept(lease -> {
                granted.add(arrival);
                tokens.add(lease.fencingToken().value());
                lease.release();
            }));
            await().atMost(Duration.ofSeconds(10)).until(() -> inLine("line") == arrival + 1); // in line before the next
        }
        held.release();
        CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertThat(granted).as("grants in order of arrival").containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(tokens).as("fencing tokens in grant order").isSorted().doesNotHaveDuplicates();
        assertThat(inLine("line")).isZero();
    }

    @Test
    void aWaiterThatGivesUpLeavesTheLine() throws Exception {
        RedisLockClient holder = replica("holder");
        RedisLockClient impatient = replica("impatient");
        LockLease held = holder.tryAcquire("give-up", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow();
        CompletableFuture<LockLease> waiter = waiting(impatient, "give-up", Duration.ofMillis(500));
        await().atMost(Duration.ofSeconds(10)).until(() -> inLine("give-up") == 1);
        assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(LockNotAcquiredException.class);
        await().atMost(Duration.ofSeconds(5)).until(() -> inLine("give-up") == 0);
        held.release();
        assertThat(replica("next").acquireInOrder("give-up", LONG, OverlapImpact.BROKEN_PROMISE, Duration.ofSeconds(5)))
                .as("no hole: the next in line is first").isNotNull();
    }

    @Test
    void aWaiterWhoseProcessDiedHoldsUpTheLineNoLongerThanItsLife() throws Exception {
        RedisLockClient holder = replica("holder");
        FaultProxy network = new FaultProxy(servers.redis().host(), servers.redis().port());
        made.add(network);
        RedisLockClient doomed = replica("doomed", network.host(), network.port());
        RedisLockClient alive = replica("alive");
        LockLease held = holder.tryAcquire("hole", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow();
        waiting(doomed, "hole", LONG);
        await().atMost(Duration.ofSeconds(10)).until(() -> inLine("hole") == 1);
        network.blackhole(); // its process is gone as far as Redis can tell: it neither comes back nor leaves
        CompletableFuture<LockLease> next = waiting(alive, "hole", LONG);
        await().atMost(Duration.ofSeconds(10)).until(() -> inLine("hole") == 2);
        long releasedAt = System.nanoTime();
        held.release();
        LockLease lease = next.get(30, TimeUnit.SECONDS);
        Duration waited = Duration.ofNanos(System.nanoTime() - releasedAt);
        assertThat(waited).as("the dead waiter's place is dropped once its life ends")
                .isLessThan(doomed.lineLife().plus(Duration.ofSeconds(3)));
        assertThat(lease.isValid()).isTrue();
        assertThat(inLine("hole")).isZero();
    }

    @Test
    void twoHundredWaitersInLineOverTenReplicasEachHoldWithinTheirWaitAndNeverTwoAtOnce() throws Exception {
        List<DistributedLock> replicas = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            replicas.add(new InOrder(replica("replica-" + i)));
        }
        ReplicaCrowd.handOver(replicas, 20, "line-of-200", Duration.ofSeconds(90));
        assertThat(inLine("line-of-200")).isZero();
    }
}
