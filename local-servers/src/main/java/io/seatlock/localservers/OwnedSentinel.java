package io.seatlock.localservers;

import java.io.IOException;
import java.util.List;

/**
 * A Sentinel process of its own (the embedded binary, loopback only) watching a master that runs already, with
 * sentinel.conf lines of the test's own (TLS, a password): for tests of how a client reaches the Sentinels, where
 * {@link RedisSentinelSetup} is for failovers.
 */
public final class OwnedSentinel implements AutoCloseable {

    private final Started started;

    private record Started(redis.embedded.RedisSentinel process, int port, int tlsPort) {
    }

    /**
     * @param masterName the name it watches the master under
     * @param masterPort the master's port (its TLS port, with {@code tls-replication yes} among the settings)
     * @param settings   extra sentinel.conf lines, after the monitor line (so {@code sentinel auth-pass <master> ...} may
     *                   be one); {@code ${tls-port}} stands for a second free port ({@link #tlsPort()})
     */
    public OwnedSentinel(String masterName, int masterPort, String... settings) throws IOException, InterruptedException {
        List<String> lines = List.of(settings);
        boolean tls = lines.stream().anyMatch(line -> line.contains(OwnedRedis.TLS_PORT));
        started = LocalServers.onFreePort(free -> {
            int tlsPort = tls ? LocalServers.freePort() : 0;
            // the monitor line first: settings such as "sentinel auth-pass <master> ..." must come after it
            var builder = redis.embedded.RedisSentinel.newRedisSentinel().bind("127.0.0.1").port(free)
                    .setting("sentinel monitor " + masterName + " 127.0.0.1 " + masterPort + " 1");
            lines.forEach(line -> builder.setting(line.replace(OwnedRedis.TLS_PORT, Integer.toString(tlsPort))));
            redis.embedded.RedisSentinel process = builder.build();
            process.start();
            return new Started(process, free, tlsPort);
        });
    }

    /** Its plain port, for asking it what it knows and for changing what it watches ({@code SENTINEL ...}). */
    public RedisServer server() {
        return new RedisServer("sentinel", "127.0.0.1", started.port(), null);
    }

    /** The port a {@code ${tls-port}} setting was given; 0 without one. */
    public int tlsPort() {
        return started.tlsPort();
    }

    @Override
    public void close() throws IOException {
        started.process().stop();
    }
}
