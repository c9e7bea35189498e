package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.RedisTimeouts;
import io.lettuce.core.cluster.SlotHash;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.RedisCluster;
import io.seatlock.localservers.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A seat map's question, which of many names are held, on a Redis Cluster through Jedis. The names live in different
 * slots, so no one MGET can ask it: the transport writes one EXISTS per name to each master together and then reads
 * the replies, a round trip per master instead of one per name (before, 400 names cost 400 round trips, one after
 * another). Lettuce's transport needs no such care: it never waits for a reply before writing the next command.
 */
class JedisClusterHeldTest {

    private static final String PREFIX = "held-map:";
    private static RedisCluster cluster;
    private static RedisLockClient lock;

    @BeforeAll
    static void start() throws Exception {
        cluster = new RedisCluster();
        Set<HostAndPort> seeds = cluster.seeds().stream().map(s -> new HostAndPort(s.getHost(), s.getPort()))
                .collect(Collectors.toSet());
        lock = RedisLockClient.over(JedisTransport.cluster(seeds, DefaultJedisClientConfig.builder().build(),
                RedisTimeouts.of(Duration.ofSeconds(5))), RedisLockSettings.defaults().withKeyPrefix(PREFIX), LockListener.NOOP);
    }

    @AfterAll
    static void stop() throws Exception {
        if (lock != null) {
            lock.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Redis counts the reads it does: a client that waits for each reply before the next command costs a master at
     * least one read per command (400 and more here); commands written together arrive in a few.
     */
    @Test
    void whichOfFourHundredNamesAreHeldCostsTheMastersAFewReadsNotOnePerName() {
        List<String> names = IntStream.range(0, 400).mapToObj(i -> "seat:hall:" + i).toList();
        try (LockLease first = lock.tryAcquire(names.get(0), Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();
             LockLease last = lock.tryAcquire(names.get(399), Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow()) {
            assertThat(lock.held(names)).hasSize(2); // connections warm
            long before = readsOnTheMasters();

            Set<String> held = lock.held(names);

            long reads = readsOnTheMasters() - before;
            assertThat(held).containsExactlyInAnyOrder(names.get(0), names.get(399));
            assertThat(reads).as("reads on the three masters for one held() of 400 names, the counting's own included")
                    .isLessThan(100);
        }
    }

    /** A name whose slot moved to another master since the transport read the slot map is asked again there. */
    @Test
    void aNameWhoseSlotMovedIsAskedAgainOnItsNewMaster() {
        String moved = "seat:moved:1";
        List<String> names = List.of("seat:stays:1", moved, "seat:stays:2", "seat:free:3");
        try (LockLease stays = lock.tryAcquire(names.get(0), Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();
             LockLease movedLease = lock.tryAcquire(moved, Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow()) {
            assertThat(lock.held(names)).containsExactlyInAnyOrder(names.get(0), moved); // the slot map is read

            RedisKeys keys = new RedisKeys(PREFIX);
            int slot = SlotHash.getSlot(keys.lock(moved));
            int from = cluster.indexHolding(keys.lock(moved));
            int to = (from + 1) % cluster.nodes().size();
            cluster.beginSlotMove(slot, from, to, keys.lock(moved), keys.fence(moved));
            cluster.endSlotMove(slot, to);

            assertThat(lock.held(names)).as("after the slot moved").containsExactlyInAnyOrder(names.get(0), moved);
            long onNewMaster = cluster.nodes().get(to).with(r -> r.exists(keys.lock(moved)));
            assertThat(onNewMaster).as("the lock key lives on its new master").isEqualTo(1L);
        }
    }



    private static long readsOnTheMasters() {
        long reads = 0;
        for (RedisServer node : cluster.nodes()) {
            for (String line : node.with(r -> r.info("stats")).split("\\r?\\n")) {
                if (line.startsWith("total_reads_processed:")) {
                    reads += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        }
        return reads;
    }
}
