package io.seatlock.lock.redis;

import io.seatlock.lock.DistributedLock;
import io.seatlock.test.DistributedLockContract;
import io.lettuce.core.cluster.SlotHash;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.localservers.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        int node = cluster.indexHolding(key);
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
                int holder = cluster.indexHolding(lockKey);
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
        assertThat(lock.held(List.of("held:a", "held:c", "held:z"))).as("keys in different slots")
                .containsExactlyInAnyOrder("held:a", "held:c");
    }

    /**
     * While a lock's slot migrates (resharding), once its keys have left for the importing node the old one answers
     * ASK: the lock is still seen there, still refuses another owner, and the holder still releases it, also when the
     * importing node has yet to load the lock's scripts.
     */
    @Test
    void aLockWhoseSlotIsMidMigrationIsStillSeenAndGuarded() {
        String name = "migrating:seat";
        RedisKeys keys = new RedisKeys("cluster-test:");
        LockLease lease = lock.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow();
        int slot = SlotHash.getSlot(keys.lock(name));
        int source = cluster.indexHolding(keys.lock(name));
        int target = (source + 1) % cluster.nodes().size();
        try {
            cluster.beginSlotMove(slot, source, target, keys.lock(name), keys.fence(name));
            cluster.nodes().get(target).with(r -> r.scriptFlush()); // the importing node does not know the lock's scripts yet

            assertThat(lock.holder(name)).hasValue(lock.settings().instanceId());
            assertThat(lock.held(List.of(name, "migrating:free"))).containsExactly(name);
            assertThat(otherReplica.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK)).isEmpty();
            assertThat(lease.release()).isEqualTo(ReleaseOutcome.RELEASED);
            // Now the lock key is gone and the fence has moved: Redis will not run a script over keys of a slot split
            // between two nodes (TRYAGAIN), so a new acquire is refused as unavailable until the migration ends.
            assertThatThrownBy(() -> otherReplica.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK))
                    .isInstanceOf(LockUnavailableException.class).hasMessageContaining("TRYAGAIN");
        } finally {
            cluster.endSlotMove(slot, target);
        }
        long left = cluster.nodes().get(target).with(r -> r.exists(keys.lock(name), keys.fence(name)));
        assertThat(left).as("on the node that took the slot: the fence, not the released lock").isEqualTo(1L);
        assertThat(otherReplica.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK)).as("once it ended")
                .hasValueSatisfying(next -> assertThat(next.release()).isEqualTo(ReleaseOutcome.RELEASED));
    }

}
