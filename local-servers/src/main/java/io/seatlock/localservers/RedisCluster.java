package io.seatlock.localservers;

import io.lettuce.core.RedisURI;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * A real Redis Cluster of three masters on loopback ports, built from the embedded Redis binary: each
 * node gets a third of the 16384 slots ({@code CLUSTER ADDSLOTS}) and meets the others
 * ({@code CLUSTER MEET}), the same result as {@code redis-cli --cluster create} without needing it.
 */
public final class RedisCluster implements AutoCloseable {

    private static final int SLOTS = 16384;
    private final List<OwnedRedis> nodes = new ArrayList<>();
    private final List<OwnedRedis> replicas = new ArrayList<>();
    private final Path dir;

    /** Three masters, no replicas. */
    public RedisCluster() throws IOException, InterruptedException {
        this(false);
    }

    /**
     * @param withReplicas whether each master gets a replica, which the cluster promotes when its master fails
     *                     (the node timeout is 2 s)
     */
    public RedisCluster(boolean withReplicas) throws IOException, InterruptedException {
        dir = Files.createTempDirectory("seatlock-cluster");
        for (int i = 0; i < 3; i++) {
            nodes.add(node());
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
        awaitAll("every master up", () -> nodes.stream()
                .allMatch(n -> n.server().with(r -> r.clusterInfo()).contains("cluster_state:ok")));
        if (withReplicas) {
            for (OwnedRedis master : nodes) {
                OwnedRedis replica = node();
                replicas.add(replica);
                replica.server().with(r -> r.clusterMeet("127.0.0.1", master.port()));
                String masterId = master.server().with(r -> r.clusterMyId());
                // the replica must know its master before it can follow it
                awaitAll("the replica meets its master", () -> replica.server().with(r -> r.clusterNodes()).contains(masterId));
                replica.server().with(r -> r.clusterReplicate(masterId));
            }
            awaitAll("every replica in sync", () -> replicas.stream().allMatch(replica -> replica.server()
                    .with(r -> r.info("replication")).contains("master_link_status:up")));
            // A failover needs the votes of the other masters: each must know every replica as its master's.
            awaitAll("every node knows every replica", () -> allNodes().allMatch(node -> node.server()
                    .with(r -> r.clusterNodes()).lines().filter(line -> line.contains("slave")).count() == replicas.size()));
        }
    }

    private Stream<OwnedRedis> allNodes() {
        return Stream.concat(nodes.stream(), replicas.stream());
    }

    private OwnedRedis node() throws IOException {
        return new OwnedRedis("cluster-enabled yes", "cluster-node-timeout 2000",
                "cluster-config-file " + dir.resolve("nodes-${port}.conf"));
    }

    private static void awaitAll(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Redis Cluster: not reached within 60 s: " + what);
            }
            Thread.sleep(100);
        }
    }

    public List<RedisURI> seeds() {
        return nodes.stream().map(n -> RedisURI.create("127.0.0.1", n.port())).toList();
    }

    /** The three masters it started with, in slot order (a failover may since have made one a replica). */
    public List<RedisServer> nodes() {
        return nodes.stream().map(OwnedRedis::server).toList();
    }

    /** The replica of the master at {@code index}, with {@code withReplicas}. */
    public RedisServer replicaOf(int index) {
        return replicas.get(index).server();
    }

    /** Kills the master at {@code index} (its process ends, as in a crash): its replica is promoted. */
    public void kill(int index) throws IOException {
        nodes.get(index).close();
    }

    @Override
    public void close() throws IOException {
        for (OwnedRedis node : nodes) {
            node.close();
        }
        for (OwnedRedis replica : replicas) {
            replica.close();
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }
}
