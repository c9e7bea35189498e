package io.seatlock.lock.redis;

import io.seatlock.lock.DistributedLock;
import io.seatlock.test.DistributedLockContract;
import io.lettuce.core.cluster.SlotHash;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.localservers.RedisCluster;
import io.seatlock.localservers.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lock on a real three-master Redis Cluster on loopback: the published contract, and the fenced acquire
 * script staying in one slot.
 */
class RedisClusterLockTest extends DistributedLockContract {

    private static RedisCluster cluster;
    private static RedisLockClient lock;
    private static RedisLockClient otherReplica;

    @BeforeAll
    static void start() throws Exception {
        cluster = new RedisCluster();
        lock = TestTransports.cluster(cluster.seeds(), Duration.ofSeconds(2),
                RedisLockSettings.defaults().withKeyPrefix("cluster-test:"), LockListener.NOOP);
        otherReplica = TestTransports.cluster(cluster.seeds(), Duration.ofSeconds(2),
                RedisLockSettings.defaults().withKeyPrefix("cluster-test:").withInstanceId("other"), LockListener.NOOP);
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
    protected void passTime(Duration time) {
        // real time: the contract waits for the effect, bounded
    }

    @Override
    protected void takeAway(String name) {
        String key = new RedisKeys("cluster-test:").lock(name);
        int node = nodeHolding(key);
        if (node >= 0) {
            cluster.nodes().get(node).with(r -> r.del(key));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        lock.close();
        otherReplica.close();
        cluster.close();
    }

    @Test
    void lockAndFenceKeysShareASlotAndTheScriptsRunOnEveryMaster() {
        Set<Integer> nodesUsed = new HashSet<>();
        for (int i = 0; i < 60; i++) {
            String name = "seat:concert:" + (i % 20 + 1) + (char) ('A' + i / 20);
            String lockKey = new RedisKeys("cluster-test:").lock(name);
            String fenceKey = new RedisKeys("cluster-test:").fence(name);
            assertThat(SlotHash.getSlot(lockKey)).isEqualTo(SlotHash.getSlot(fenceKey));

            long first;
            try (LockLease lease = lock.tryAcquire(name, Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
                first = lease.fencingToken().value();
                assertThat(lock.tryAcquire(name, Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE)).isEmpty();
                assertThat(lease.renew(Duration.ofSeconds(20))).isTrue();
                int holder = nodeHolding(lockKey);
                assertThat(holder).isNotNegative();
                long fenceOnSameNode = cluster.nodes().get(holder).with(r -> r.exists(fenceKey));
                assertThat(fenceOnSameNode).isEqualTo(1L);
                nodesUsed.add(holder);
            }
            LockLease again = lock.tryAcquire(name, Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE).orElseThrow();
            assertThat(again.fencingToken().value()).isGreaterThan(first);
            assertThat(again.release()).isEqualTo(ReleaseOutcome.RELEASED);
        }
        assertThat(nodesUsed).as("names spread over all three masters").hasSize(3);
    }

    @Test
    void heldNamesScansEveryMaster() {
        lock.tryAcquire("held:a", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK).orElseThrow();
        lock.tryAcquire("held:b", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK).orElseThrow();
        lock.tryAcquire("held:c", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK).orElseThrow();
        assertThat(lock.heldNames("held:")).containsExactlyInAnyOrder("held:a", "held:b", "held:c");
        assertThat(lock.held(java.util.List.of("held:a", "held:c", "held:z"))).as("keys in different slots")
                .containsExactlyInAnyOrder("held:a", "held:c");
    }

    private static int nodeHolding(String key) {
        for (int i = 0; i < cluster.nodes().size(); i++) {
            RedisServer node = cluster.nodes().get(i);
            long here = node.with(r -> {
                try {
                    return r.exists(key);
                } catch (io.lettuce.core.RedisCommandExecutionException moved) {
                    return 0L;
                }
            });
            if (here == 1) {
                return i;
            }
        }
        return -1;
    }
}
