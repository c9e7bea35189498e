package io.seatlock.lock.redis;

import io.lettuce.core.cluster.SlotHash;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.lock.redis.spi.RedisTransport;
import io.seatlock.localservers.RedisCluster;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A Redis Cluster master dies and the cluster promotes its replica: the lock, on either client, finds the new master
 * by itself. The clients learn the cluster's layout when they connect and, unless told to look again, keep sending a
 * dead master's slots to it: before, a lock whose name hashed there stayed unavailable (still so 60 s after the
 * promotion) until the application restarted.
 */
class RedisClusterFailoverTest {

    private static final String PREFIX = "cluster-failover:";
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    @Test
    void aLockOnAKilledMastersSlotsIsAvailableAgainOnceItsReplicaIsPromoted() throws Exception {
        try (RedisCluster cluster = new RedisCluster(true);
             RedisLockClient lock = TestTransports.cluster(cluster.seeds(), TIMEOUT,
                     RedisLockSettings.defaults().withKeyPrefix(PREFIX), LockListener.NOOP)) {
            String name = nameOnMaster(cluster, 0, "before");
            try (LockLease before = lock.tryAcquire(name, Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow()) {
                assertThat(before.fencingToken().value()).isPositive();
            }

            assertThat(lock.ping()).as("every master answers").isPositive();
            int deadPort = cluster.nodes().get(0).port();

            cluster.kill(0);
            // the health check pings every master: until the replica is promoted (the node timeout is 2 s), the dead one
            // is reported, though the other two answer
            assertThatThrownBy(lock::ping).isInstanceOf(LockUnavailableException.class)
                    .hasMessageContaining("master 127.0.0.1:" + deadPort + " did not answer");
            try {
                await("the cluster promotes the replica").atMost(Duration.ofSeconds(60))
                        .until(() -> cluster.replicaOf(0).with(r -> r.info("replication")).contains("role:master"));
            } catch (ConditionTimeoutException e) { // the cluster's doing, not the lock's: say what the replica saw
                throw new AssertionError("no failover; the replica's view:\n" + cluster.replicaOf(0).with(r -> r.clusterNodes()), e);
            }
            long promotedAt = System.nanoTime();

            await("a lock on the dead master's slots").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> available(lock, nameOnMaster(cluster, 0, "after")));
            Duration back = Duration.ofNanos(System.nanoTime() - promotedAt);
            // the README's bound: the layout is read again within DEFAULT_CLUSTER_REFRESH, and a call takes a command timeout
            assertThat(back).as("available again after the promotion")
                    .isLessThan(RedisTransport.DEFAULT_CLUSTER_REFRESH.plus(TIMEOUT.multipliedBy(3)));
            // the promoted replica is a master in the layout the lock reads, the dead one no longer is: the calls that ask
            // every master (the health check's ping, heldNames' scan) go to the new one
            String held = nameOnMaster(cluster, 0, "held");
            try (LockLease lease = lock.tryAcquire(held, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow()) {
                await("every master answers a ping and a scan")
                        .atMost(RedisTransport.DEFAULT_CLUSTER_REFRESH.plus(TIMEOUT.multipliedBy(3)))
                        .ignoreExceptions().until(() -> lock.ping() != null && lock.heldNames("held:").contains(held));
                assertThat(lease.release()).isEqualTo(ReleaseOutcome.RELEASED);
            }
        }
    }

    private static boolean available(RedisLockClient lock, String name) {
        try {
            Optional<LockLease> lease = lock.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK);
            lease.ifPresent(LockLease::release);
            return lease.isPresent();
        } catch (RuntimeException unavailable) {
            return false;
        }
    }

    /** A lock name whose keys hash to a slot the cluster gave the master at {@code master}. */
    private static String nameOnMaster(RedisCluster cluster, int master, String stem) {
        RedisKeys keys = new RedisKeys(PREFIX);
        return IntStream.range(0, 10_000).mapToObj(i -> stem + ":" + i)
                .filter(name -> cluster.firstMasterOf(SlotHash.getSlot(keys.lock(name))) == master)
                .findFirst().orElseThrow();
    }
}
