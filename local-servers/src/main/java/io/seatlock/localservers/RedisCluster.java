package io.seatlock.localservers;

import io.lettuce.core.RedisURI;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A real Redis Cluster of three masters on loopback ports, built from the embedded Redis binary: each
 * node gets a third of the 16384 slots ({@code CLUSTER ADDSLOTS}) and meets the others
 * ({@code CLUSTER MEET}), the same result as {@code redis-cli --cluster create} without needing it.
 */
public final class RedisCluster implements AutoCloseable {

    private static final int SLOTS = 16384;
    private final List<OwnedRedis> nodes = new ArrayList<>();
    private final Path dir;

    public RedisCluster() throws IOException, InterruptedException {
        dir = Files.createTempDirectory("seatlock-cluster");
        for (int i = 0; i < 3; i++) {
            nodes.add(new OwnedRedis("cluster-enabled yes", "cluster-node-timeout 2000",
                    "cluster-config-file " + dir.resolve("nodes-${port}.conf")));
        }
        for (int i = 0; i < nodes.size(); i++) {
            int from = i * SLOTS / nodes.size();
            int to = (i + 1) * SLOTS / nodes.size();
            int[] slots = IntStream.range(from, to).toArray();
            nodes.get(i).server().with(r -> r.clusterAddSlots(slots));
        }
        for (OwnedRedis other : nodes.subList(1, nodes.size())) {
            nodes.get(0).server().with(r -> r.clusterMeet("127.0.0.1", other.port()));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!nodes.stream().allMatch(n -> n.server().with(r -> r.clusterInfo()).contains("cluster_state:ok"))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Redis Cluster did not reach cluster_state:ok");
            }
            Thread.sleep(100);
        }
    }

    public List<RedisURI> seeds() {
        return nodes.stream().map(n -> RedisURI.create("127.0.0.1", n.port())).toList();
    }

    public List<RedisServer> nodes() {
        return nodes.stream().map(OwnedRedis::server).toList();
    }

    @Override
    public void close() throws IOException {
        for (OwnedRedis node : nodes) {
            node.close();
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }
}
