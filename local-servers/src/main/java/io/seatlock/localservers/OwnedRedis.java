package io.seatlock.localservers;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;

/**
 * A Redis server process of its own (the embedded binary from Maven): one test's, so faults such as
 * {@code FLUSHALL} or a restart touch nobody else's data, or the run's fallback server where no other Redis is found
 * ({@link LocalServers}). Loopback only, nothing on disk.
 */
public final class OwnedRedis implements AutoCloseable {

    /** In a setting, stands for a second free port, the server's TLS port. */
    static final String TLS_PORT = "${tls-port}";

    private final Ports ports;
    private final List<String> settings;
    private redis.embedded.RedisServer process;

    /** The plain port, and the one given to {@code ${tls-port}} (0 without such a setting). */
    private record Ports(int plain, int tls) {
    }

    /**
     * @param settings extra redis.conf lines, e.g. {@code cluster-enabled yes}; {@code ${port}} stands for the
     *                 server's port, {@code ${tls-port}} for a second free port (see {@link #tlsPort()})
     */
    public OwnedRedis(String... settings) throws IOException {
        this.settings = List.of(settings);
        boolean tls = this.settings.stream().anyMatch(line -> line.contains(TLS_PORT));
        try {
            // both ports found free together, and found again together should either be taken before Redis binds it
            this.ports = LocalServers.onFreePort(free -> {
                Ports picked = new Ports(free, tls ? LocalServers.freePort() : 0);
                start(picked);
                return picked;
            });
        } catch (InterruptedException e) { // starting a Redis process waits for nothing interruptible
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while starting Redis");
        }
    }

    public RedisServer server() {
        return new RedisServer("owned", "127.0.0.1", ports.plain(), null);
    }

    public int port() {
        return ports.plain();
    }

    /** The port a {@code ${tls-port}} setting was given; 0 without one. */
    public int tlsPort() {
        return ports.tls();
    }

    /** Stops the process (every key and script is gone, as after a crash without persistence) and starts it again. */
    public synchronized void restart() throws IOException {
        process.stop();
        start(ports);
    }

    private void start(Ports ports) throws IOException {
        var builder = redis.embedded.RedisServer.newRedisServer().port(ports.plain())
                .setting("bind 127.0.0.1").setting("save \"\"").setting("appendonly no");
        settings.forEach(line -> builder.setting(line.replace("${port}", Integer.toString(ports.plain()))
                .replace(TLS_PORT, Integer.toString(ports.tls()))));
        process = builder.build();
        process.start();
    }

    @Override
    public synchronized void close() throws IOException {
        process.stop();
    }
}
