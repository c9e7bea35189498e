package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.localservers.DocumentedAcl;
import io.seatlock.localservers.RedisCluster;
import io.seatlock.localservers.RedisServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's ACL lines for a Redis Cluster (read from README.md, both applied on every node) are enough for the
 * lock. With the first line alone, Lettuce could not connect ("Cannot retrieve cluster partitions": no
 * {@code CLUSTER NODES}, no {@code INFO}) and Jedis could not read its slot map (no {@code CLUSTER SLOTS}).
 * Neither could, for a Redis Cluster, before the README had a second line.
 */
class RedisClusterAclTest {

    @Test
    void theDocumentedClusterAclAllowsTheLock() throws Exception {
        try (RedisCluster cluster = new RedisCluster()) {
            cluster.nodes().forEach(DocumentedAcl::applyForCluster);
            List<RedisURI> seeds = cluster.seeds().stream().map(seed -> RedisURI.builder().withHost(seed.getHost())
                    .withPort(seed.getPort()).withAuthentication("seatlock", DocumentedAcl.password()).build()).toList();

            try (RedisLockClient lock = TestTransports.cluster(seeds, Duration.ofSeconds(2), RedisLockSettings.defaults(),
                    LockListener.NOOP)) {
                LockLease lease = lock.tryAcquire("acl:job", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK).orElseThrow();
                assertThat(lock.holder("acl:job")).hasValue(lock.settings().instanceId());
                assertThat(lock.heldNames("acl:")).containsExactly("acl:job");
                assertThat(lock.ping()).as("the health check's PING to every master").isPositive();
                assertThat(lock.held(List.of("acl:job", "acl:free"))).containsExactly("acl:job");
                assertThat(lease.renew(Duration.ofSeconds(10))).isTrue();
                assertThat(lease.release()).isEqualTo(ReleaseOutcome.RELEASED);
                assertThat(lock.tryAcquire("acl:job", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK))
                        .hasValueSatisfying(again -> assertThat(again.release()).isEqualTo(ReleaseOutcome.RELEASED));
            }

            // What the nodes refused: CLIENT subcommands at most (the name and version a client offers when it
            // connects; it goes on without them), nothing the lock needs.
            for (RedisServer node : cluster.nodes()) {
                List<Map<String, Object>> refused = node.with(r -> r.aclLog());
                assertThat(refused).extracting(entry -> entry.get("object")).allMatch("client"::equals);
            }
        }
    }
}
