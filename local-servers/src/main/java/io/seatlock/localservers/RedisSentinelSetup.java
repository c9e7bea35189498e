package io.seatlock.localservers;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A Redis master (optionally with a replica) watched by Sentinels (master name {@code seatlock-master}),
 * all from the embedded Redis binary on loopback, for tests of the Sentinel topology and of failover.
 */
public final class RedisSentinelSetup implements AutoCloseable {

    public static final String MASTER_NAME = "seatlock-master";

    private final OwnedRedis master;
    private final OwnedRedis replica;
    private final List<redis.embedded.RedisSentinel> sentinels = new ArrayList<>();
    private final List<Integer> sentinelPorts = new ArrayList<>();
    private final List<Long> frozen = new ArrayList<>();

    /** One master, one Sentinel that declares it down after 5 s: a topology, not a failover. */
    public RedisSentinelSetup() throws IOException, InterruptedException {
        this(false, 1, Duration.ofSeconds(5));
    }

    /**
     * @param withReplica whether the master has a replica that a failover can promote
     * @param sentinels   how many Sentinels watch it (the quorum is a majority of them)
     * @param downAfter   how long the master must not answer before a Sentinel calls it down
     */
    public RedisSentinelSetup(boolean withReplica, int sentinels, Duration downAfter) throws IOException, InterruptedException {
        master = new OwnedRedis();
        replica = withReplica ? new OwnedRedis("replicaof 127.0.0.1 " + master.port()) : null;
        for (int i = 0; i < sentinels; i++) {
            int port = LocalServers.onFreePort(free -> {
                redis.embedded.RedisSentinel sentinel = redis.embedded.RedisSentinel.newRedisSentinel().bind("127.0.0.1")
                        .port(free).masterName(MASTER_NAME).masterPort(master.port()).quorumSize(sentinels / 2 + 1)
                        .downAfterMilliseconds(downAfter.toMillis()).failOverTimeout(Math.max(3000, downAfter.toMillis() * 3))
                        .parallelSyncs(1).build();
                sentinel.start();
                this.sentinels.add(sentinel);
                return free;
            });
            sentinelPorts.add(port);
            awaitAnswer(new RedisServer("sentinel", "127.0.0.1", port, null));
        }
        if (replica != null) {
            awaitReplicaCount(sentinels);
        }
    }

    private static void awaitAnswer(RedisServer server) throws InterruptedException {
        LocalServers.awaitUntil(server + " answers", Duration.ofSeconds(30), () -> LocalServers.answers(server));
    }

    /** Until every Sentinel knows the replica and the other Sentinels (so a failover has a quorum and a candidate). */
    private void awaitReplicaCount(int sentinels) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (int port : sentinelPorts) {
            RedisServer sentinel = new RedisServer("sentinel", "127.0.0.1", port, null);
            while (true) {
                String info = sentinel.with(r -> r.info("sentinel"));
                if (info.contains("slaves=1") && info.contains("sentinels=" + sentinels)) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Sentinel " + port + " does not see the replica and its peers: " + info);
                }
                Thread.sleep(100);
            }
        }
    }

    /** The first master, for asserting on its keys. */
    public RedisServer master() {
        return master.server();
    }

    /** The replica a failover promotes. */
    public RedisServer replica() {
        return replica.server();
    }

    /** {@code spring.data.redis.sentinel.nodes}. */
    public String sentinelNodes() {
        return sentinelPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    }

    /** {@code redis-sentinel://...#seatlock-master}, for a client that follows failovers. */
    public String sentinelUrl() {
        return "redis-sentinel://" + sentinelNodes() + "#" + MASTER_NAME;
    }

    /** The Sentinels, for asking them what they know and who is subscribed to them. */
    public List<RedisServer> sentinels() {
        return sentinelPorts.stream().map(port -> new RedisServer("sentinel", "127.0.0.1", port, null)).toList();
    }

    /** The port the Sentinels now name as master. */
    public int currentMasterPort() {
        RedisServer sentinel = sentinels().get(0);
        return Integer.parseInt(sentinel.with(r -> r.dispatch(CommandType.SENTINEL,
                new ValueListOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add("get-master-addr-by-name").add(MASTER_NAME))).get(1).toString());
    }

    /**
     * Asks the (first) Sentinel to fail over now ({@code SENTINEL FAILOVER}), as an operator would: it promotes the
     * replica without the master having failed, and announces the switch.
     */
    public void failover() {
        sentinels().get(0).sentinel("failover", MASTER_NAME);
    }

    /** Freezes the master process ({@code SIGSTOP}): its kernel keeps connections open, it answers nothing. */
    public void freezeMaster() throws IOException, InterruptedException {
        freeze(master.server());
    }

    /** Freezes the replica ({@code SIGSTOP}): replication to it stops, the master goes on without it. */
    public void freezeReplica() throws IOException, InterruptedException {
        freeze(replica.server());
    }

    /** Resumes whatever was frozen ({@code SIGCONT}). */
    public void thaw() throws IOException, InterruptedException {
        for (long pid : frozen) {
            signal("-CONT", pid);
        }
        frozen.clear();
    }

    /** Kills the master process ({@code SIGKILL}): whatever it had not sent its replica is gone. */
    public void killMaster() throws IOException, InterruptedException {
        signal("-KILL", pidOf(master.server()));
    }

    private void freeze(RedisServer server) throws IOException, InterruptedException {
        long pid = pidOf(server);
        signal("-STOP", pid);
        frozen.add(pid);
    }

    private static long pidOf(RedisServer server) {
        return Long.parseLong(server.with(r -> r.info("server")).lines()
                .filter(l -> l.startsWith("process_id:")).findFirst().orElseThrow().substring("process_id:".length()).strip());
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill " + signal + " " + pid + " failed");
        }
    }

    @Override
    public void close() throws IOException {
        try {
            thaw();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (redis.embedded.RedisSentinel sentinel : sentinels) {
            sentinel.stop();
        }
        if (replica != null) {
            replica.close();
        }
        master.close();
    }
}
