package io.seatlock.localservers;

import io.lettuce.core.MigrateArgs;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * A real Redis Cluster of three masters on loopback ports, built from the embedded Redis binary: each
 * node gets a third of the 16384 slots ({@code CLUSTER ADDSLOTS}) and meets the others
 * ({@code CLUSTER MEET}), the same result as {@code redis-cli --cluster create} without needing it.
 */
public final class RedisCluster implements AutoCloseable {

    private static final int SLOTS = 16384;
    /** How long each step of building the cluster may take. */
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private final List<OwnedRedis> nodes = new ArrayList<>();
    private final List<OwnedRedis> replicas = new ArrayList<>();
    private final Path dir;
    /** redis.conf lines every node gets besides the cluster's own. */
    private final List<String> nodeSettings;

    /** Three masters, no replicas. */
    public RedisCluster() throws IOException, InterruptedException {
        this(false);
    }

    /**
     * @param withReplicas whether each master gets a replica, which the cluster promotes when its master fails
     *                     (the node timeout is 2 s)
     */
    public RedisCluster(boolean withReplicas) throws IOException, InterruptedException {
        this(withReplicas, List.of());
    }

    /**
     * Three masters, no replicas, that clients reach over TLS: each node gets {@code tlsSettings} (a
     * {@code tls-port ${tls-port}} line, its certificate, key and CA) and {@code tls-cluster yes}, so its TLS port is the
     * one the cluster announces in its layout and redirections, and its bus speaks TLS. Each keeps its plain port for
     * the tests' own checks ({@link #nodes()}).
     *
     * @param tlsSettings redis.conf lines of a TLS server on {@code ${tls-port}}
     * @return the cluster; {@link #tlsNodes()} are its TLS seeds
     */
    public static RedisCluster overTls(List<String> tlsSettings) throws IOException, InterruptedException {
        List<String> settings = new ArrayList<>(tlsSettings);
        settings.add("tls-cluster yes");
        return new RedisCluster(false, settings);
    }

    private RedisCluster(boolean withReplicas, List<String> nodeSettings) throws IOException, InterruptedException {
        this.nodeSettings = nodeSettings;
        dir = Files.createTempDirectory("seatlock-cluster");
        for (int i = 0; i < 3; i++) {
            nodes.add(node());
        }
        for (int i = 0; i < nodes.size(); i++) {
            int[] slots = IntStream.range(firstSlotOf(i), firstSlotOf(i + 1)).toArray();
            nodes.get(i).server().with(r -> r.clusterAddSlots(slots));
        }
        for (OwnedRedis other : nodes.subList(1, nodes.size())) {
            nodes.get(0).server().with(r -> r.clusterMeet("127.0.0.1", clusterPort(other)));
        }
        LocalServers.awaitUntil("Redis Cluster: every master up", SETTLE, () -> nodes.stream()
                .allMatch(n -> n.server().with(r -> r.clusterInfo()).contains("cluster_state:ok")));
        if (withReplicas) {
            for (OwnedRedis master : nodes) {
                OwnedRedis replica = node();
                replicas.add(replica);
                replica.server().with(r -> r.clusterMeet("127.0.0.1", clusterPort(master)));
                String masterId = master.server().with(r -> r.clusterMyId());
                // the replica must know its master before it can follow it
                LocalServers.awaitUntil("Redis Cluster: the replica meets its master", SETTLE,
                        () -> replica.server().with(r -> r.clusterNodes()).contains(masterId));
                replica.server().with(r -> r.clusterReplicate(masterId));
            }
            LocalServers.awaitUntil("Redis Cluster: every replica in sync", SETTLE, () -> replicas.stream().allMatch(replica -> replica.server()
                    .with(r -> r.info("replication")).contains("master_link_status:up")));
            // A failover needs the votes of the other masters: each must know every replica as its master's.
            LocalServers.awaitUntil("Redis Cluster: every node knows every replica", SETTLE, () -> allNodes().allMatch(node -> node.server()
                    .with(r -> r.clusterNodes()).lines().filter(line -> line.contains("slave")).count() == replicas.size()));
        }
    }

    private Stream<OwnedRedis> allNodes() {
        return Stream.concat(nodes.stream(), replicas.stream());
    }

    private OwnedRedis node() throws IOException {
        List<String> settings = new ArrayList<>(List.of("cluster-enabled yes", "cluster-node-timeout 2000",
                "cluster-config-file " + dir.resolve("nodes-${port}.conf")));
        settings.addAll(nodeSettings);
        return new OwnedRedis(settings.toArray(String[]::new));
    }

    /** The port a node is known by in the cluster: its TLS port under {@code tls-cluster}, else its only one. */
    private static int clusterPort(OwnedRedis node) {
        return node.tlsPort() != 0 ? node.tlsPort() : node.port();
    }

    /** The first slot a new cluster gives the master at {@code index}: a third of the slots each, in order. */
    private int firstSlotOf(int index) {
        return index * SLOTS / nodes.size();
    }

    public List<RedisURI> seeds() {
        return nodes.stream().map(n -> RedisURI.create("127.0.0.1", n.port())).toList();
    }

    /** {@code host:port} of each master's TLS port, for {@code spring.data.redis.cluster.nodes}; empty without TLS. */
    public List<String> tlsNodes() {
        return nodes.stream().filter(n -> n.tlsPort() != 0).map(n -> "127.0.0.1:" + n.tlsPort()).toList();
    }

    /** The three masters it started with, in slot order (a failover may since have made one a replica). */
    public List<RedisServer> nodes() {
        return nodes.stream().map(OwnedRedis::server).toList();
    }

    /** The index in {@link #nodes()} of the master a new cluster gave {@code slot}. */
    public int firstMasterOf(int slot) {
        int index = 0;
        while (slot >= firstSlotOf(index + 1)) {
            index++;
        }
        return index;
    }

    /** The index in {@link #nodes()} of the master that holds {@code key} now; -1 where none does. */
    public int indexHolding(String key) {
        for (int i = 0; i < nodes.size(); i++) {
            long here = nodes.get(i).server().with(r -> {
                try {
                    return r.exists(key);
                } catch (RedisCommandExecutionException moved) { // not this master's slot
                    return 0L;
                }
            });
            if (here == 1) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Starts moving {@code slot} from one master to another as Redis' resharding does: the target IMPORTING, the source
     * MIGRATING, then {@code keys} sent over with MIGRATE. Until {@link #endSlotMove}, the source still owns the slot
     * and answers ASK for the keys that left.
     */
    public void beginSlotMove(int slot, int from, int to, String... keys) {
        RedisServer source = nodes.get(from).server();
        RedisServer target = nodes.get(to).server();
        String sourceId = source.with(r -> r.clusterMyId());
        String targetId = target.with(r -> r.clusterMyId());
        target.with(r -> r.clusterSetSlotImporting(slot, sourceId));
        source.with(r -> r.clusterSetSlotMigrating(slot, targetId));
        source.with(r -> r.migrate(target.host(), target.port(), 0, 5_000, MigrateArgs.Builder.keys(keys)));
    }

    /** Ends a slot's move: every master names the master at {@code to} as the slot's owner. */
    public void endSlotMove(int slot, int to) {
        String targetId = nodes.get(to).server().with(r -> r.clusterMyId());
        for (OwnedRedis node : nodes) {
            node.server().with(r -> r.clusterSetSlotNode(slot, targetId));
        }
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
