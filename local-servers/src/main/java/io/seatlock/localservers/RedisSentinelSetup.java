package io.seatlock.localservers;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;

/**
 * A Redis master watched by one Sentinel (master name {@code seatlock-master}), both from the embedded
 * Redis binary on loopback, for tests of the Sentinel topology.
 */
public final class RedisSentinelSetup implements AutoCloseable {

    public static final String MASTER_NAME = "seatlock-master";

    private final OwnedRedis master;
    private final redis.embedded.RedisSentinel sentinel;
    private final int sentinelPort;

    public RedisSentinelSetup() throws IOException, InterruptedException {
        master = new OwnedRedis();
        try (ServerSocket s = new ServerSocket(0)) {
            sentinelPort = s.getLocalPort();
        }
        sentinel = redis.embedded.RedisSentinel.newRedisSentinel().bind("127.0.0.1").port(sentinelPort)
                .masterName(MASTER_NAME).masterPort(master.port()).quorumSize(1).downAfterMilliseconds(5000)
                .failOverTimeout(10000).parallelSyncs(1).build();
        sentinel.start();
        RedisServer sentinelServer = new RedisServer("sentinel", "127.0.0.1", sentinelPort, null);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!LocalServers.answers(sentinelServer)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Redis Sentinel did not answer on " + sentinelPort);
            }
            Thread.sleep(100);
        }
    }

    /** The master the Sentinel names, for asserting on its keys. */
    public RedisServer master() {
        return master.server();
    }

    /** {@code spring.data.redis.sentinel.nodes}. */
    public String sentinelNodes() {
        return "127.0.0.1:" + sentinelPort;
    }

    @Override
    public void close() throws IOException {
        sentinel.stop();
        master.close();
    }
}
