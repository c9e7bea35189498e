package io.seatlock.seats;

import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.localservers.RedisCluster;
import io.seatlock.localservers.RedisSentinelSetup;
import io.seatlock.localservers.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * GH-9: whichever Redis topology Spring Boot is given (Cluster, Sentinel), the lock, app-seats' sold-seat
 * hint and the Redis health check all use that one Redis, never a default one on localhost.
 */
class SeatsRedisTopologyTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatsRedisTopologyTest");

    @Test
    void aRedisClusterFromSpringsClusterNodesServesTheLockTheHintAndHealth() throws Exception {
        try (RedisCluster cluster = new RedisCluster()) {
            String nodes = cluster.seeds().stream().map(u -> u.getHost() + ":" + u.getPort())
                    .collect(Collectors.joining(","));
            bookAndCheck(Map.of("spring.data.redis.cluster.nodes", nodes), "3C", cluster.nodes());
        }
    }

    @Test
    void aSentinelManagedMasterServesTheLockTheHintAndHealth() throws Exception {
        try (RedisSentinelSetup sentinel = new RedisSentinelSetup()) {
            bookAndCheck(Map.of("spring.data.redis.sentinel.master", RedisSentinelSetup.MASTER_NAME,
                    "spring.data.redis.sentinel.nodes", sentinel.sentinelNodes()), "4D", List.of(sentinel.master()));
        }
    }

    private void bookAndCheck(Map<String, String> topology, String seat, List<RedisServer> topologyNodes) {
        Map<String, String> extra = new java.util.HashMap<>(topology);
        extra.put("seats.relay.interval", "1h");
        extra.put("management.endpoint.health.show-details", "always");
        try (SeatsReplica app = SeatsReplica.start("topology", servers, 1, extra)) {
            HttpResponse<String> health = app.get("/actuator/health");
            assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
            JsonNode components = JsonMapper.shared().readTree(health.body()).get("components");
            assertThat(components.has("redis")).as("Spring's Redis indicator is off: the seatlock one reports Redis").isFalse();
            assertThat(components.get("seatlock").get("status").asString()).isEqualTo("UP");

            HttpResponse<String> booked = app.book("concert", seat, "ada@example.com", "Ada");
            assertThat(booked.statusCode()).as(booked.body()).isEqualTo(201);
            assertThat(booked.body()).contains("\"bouncer\":\"up\"");
            String lockName = "seat:concert:" + seat;
            assertThat(keysOn(topologyNodes)).as("the lock's fence and the sold hint live in the configured Redis")
                    .contains(new RedisKeys(servers.keyPrefix()).fence(lockName), new RedisKeys(servers.keyPrefix()).decided(lockName));
            List<String> onDefaultRedis = servers.redis().with(r -> r.keys(servers.keyPrefix() + "*"));
            assertThat(onDefaultRedis).as("nothing on the default Redis").isEmpty();

            // Pool checkouts are not counted here: the outbox relay's first run may check one out at any time.
            assertThat(app.book("concert", seat, "bob@example.com", "Bob").statusCode()).isEqualTo(409);
            assertThat(app.counter("seatlock.lock.decided", "seatlock.lock.group", "seat"))
                    .as("answered from the decided marker in that Redis").isEqualTo(1.0);
        }
    }

    private List<String> keysOn(List<RedisServer> nodes) {
        return nodes.stream().flatMap(n -> n.with(r -> r.keys(servers.keyPrefix() + "*")).stream()).toList();
    }
}
