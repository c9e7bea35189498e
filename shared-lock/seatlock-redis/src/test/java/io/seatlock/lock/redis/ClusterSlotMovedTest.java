package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.RedisCluster;
import io.seatlock.localservers.RedisServer;
import io.seatlock.test.FaultProxy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lock call whose slot moved to another master since the client read the cluster's layout follows the {@code MOVED}
 * reply to the master it names, within the call's own deadline, though the seeds the client was given have gone dark
 * (they accept connections and answer nothing, as an address in front of the cluster that went away). Jedis' way,
 * reading the whole layout again on the caller's thread, seeds first, before trying again, spent the call's timeout
 * on a seed, and the call failed.
 */
class ClusterSlotMovedTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final String PREFIX = "slot-moved:";

    @Test
    void aCallFollowsAMovedSlotWithinItsDeadlineWhileASeedIsDark() throws Exception {
        List<FaultProxy> seedProxies = new ArrayList<>();
        try (RedisCluster cluster = new RedisCluster()) {
            List<RedisURI> seeds = new ArrayList<>();
            for (RedisServer node : cluster.nodes()) {
                FaultProxy seed = new FaultProxy("127.0.0.1", node.port());
                seedProxies.add(seed);
                seeds.add(RedisURI.create(seed.host(), seed.port()));
            }
            try (RedisLockClient lock = TestTransports.warmedUp(TestTransports.cluster(seeds, TIMEOUT,
                    RedisLockSettings.defaults().withKeyPrefix(PREFIX), LockListener.NOOP))) {
                String name = "seat:moved";
                String key = new RedisKeys(PREFIX).lock(name);
                int slot = SlotHash.getSlot(key);
                int to = (cluster.firstMasterOf(slot) + 1) % cluster.nodes().size();
                seedProxies.forEach(FaultProxy::blackhole);
                cluster.endSlotMove(slot, to); // an empty slot: every master names its new owner at once

                long start = System.nanoTime();
                LockLease lease = lock.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow();
                Duration took = Duration.ofNanos(System.nanoTime() - start);

                RedisServer owner = cluster.nodes().get(to);
                String holder = owner.with(r -> r.get(key));
                assertThat(holder).as("granted on the slot's new master").isEqualTo(lease.ownerToken());
                assertThat(took).as("within the command timeout of %s", TIMEOUT).isLessThan(TIMEOUT);
                lease.release();
                long left = owner.with(r -> r.exists(key));
                assertThat(left).as("released there too").isZero();
            }
        } finally {
            for (FaultProxy seed : seedProxies) {
                seed.close();
            }
        }
    }
}
