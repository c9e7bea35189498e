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
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

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
     * importing node has yet to load the lock's scripts. An acquire whose keys the migration has split between the two
     * nodes is asked again until its timeout: granted once the migration ends, unavailable (never granted) if it
     * outlasts the timeout.
     */
    @Test
    void aLockWhoseSlotIsMidMigrationIsStillSeenAndGuarded() throws Exception {
        String name = "migrating:seat";
        RedisKeys keys = new RedisKeys("cluster-test:");
        LockLease lease = lock.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow();
        long firstToken = lease.fencingToken().value();
        int slot = SlotHash.getSlot(keys.lock(name));
        int source = cluster.indexHolding(keys.lock(name));
        int target = (source + 1) % cluster.nodes().size();
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try (RedisLockClient patient = TestTransports.cluster(cluster.seeds(), Duration.ofSeconds(10),
                RedisLockSettings.defaults().withKeyPrefix("cluster-test:").withInstanceId("patient"), LockListener.NOOP)) {
            Future<Optional<LockLease>> acquiring;
            try {
                cluster.beginSlotMove(slot, source, target, keys.lock(name), keys.fence(name));
                cluster.nodes().get(target).with(r -> r.scriptFlush()); // the importing node does not know the lock's scripts yet

                assertThat(lock.holder(name)).hasValue(lock.settings().instanceId());
                assertThat(lock.held(List.of(name, "migrating:free"))).containsExactly(name);
                assertThat(otherReplica.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK)).isEmpty();
                assertThat(lease.release()).isEqualTo(ReleaseOutcome.RELEASED);
                // Now the lock key is gone and the fence has moved: Redis runs no script over keys of a slot split
                // between two nodes (TRYAGAIN, before running anything), so an acquire asks again while its timeout
                // lasts, and is unavailable after it.
                long refusedBefore = refusedScripts(target);
                assertThatThrownBy(() -> otherReplica.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK))
                        .isInstanceOf(LockUnavailableException.class);
                assertThat(refusedScripts(target) - refusedBefore).as("refusals of the acquire, asked again").isGreaterThan(2);
                long lockKeys = cluster.nodes().get(target).with(r -> {
                    r.asking(); // the importing node answers for the slot's keys only to a client that says ASKING
                    return r.exists(keys.lock(name));
                });
                assertThat(lockKeys).as("nothing granted on the importing node, which holds the fence").isZero();

                long refusedBeforePatient = refusedScripts(target);
                acquiring = caller.submit(() -> patient.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK));
                await().atMost(Duration.ofSeconds(8)).until(() -> refusedScripts(target) > refusedBeforePatient);
            } finally {
                cluster.endSlotMove(slot, target);
            }
            LockLease granted = acquiring.get(30, TimeUnit.SECONDS).orElseThrow();
            assertThat(granted.fencingToken().value()).isGreaterThan(firstToken);
            assertThat(cluster.indexHolding(keys.lock(name))).as("granted on the node that took the slot").isEqualTo(target);
            assertThat(patient.holder(name)).hasValue("patient");
            assertThat(granted.release()).isEqualTo(ReleaseOutcome.RELEASED);
        } finally {
            caller.shutdownNow();
        }
        assertThat(otherReplica.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK)).as("once it ended")
                .hasValueSatisfying(next -> assertThat(next.release()).isEqualTo(ReleaseOutcome.RELEASED));
    }

    /** Scripts the master at {@code index} refused before running them ({@code TRYAGAIN} among them). */
    private static long refusedScripts(int index) {
        return cluster.nodes().get(index).commandStats("rejected_calls").getOrDefault("evalsha", 0L);
    }

}
