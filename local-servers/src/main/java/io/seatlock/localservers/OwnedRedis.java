package io.seatlock.localservers;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;

/**
 * A Redis server process owned by one test (the embedded binary from Maven), so faults such as
 * {@code FLUSHALL} or a restart touch nobody else's data. Loopback only, nothing on disk.
 */
public final class OwnedRedis implements AutoCloseable {

    private final int port;
    private final List<String> settings;
    private redis.embedded.RedisServer process;

    /** @param settings extra redis.conf lines, e.g. {@code cluster-enabled yes} */
    public OwnedRedis(String... settings) throws IOException {
        this.settings = List.of(settings);
        try {
            this.port = LocalServers.onFreePort(free -> {
                start(free);
                return free;
            });
        } catch (InterruptedException e) { // starting a Redis process waits for nothing interruptible
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while starting Redis");
        }
    }

    public RedisServer server() {
        return new RedisServer("owned", "127.0.0.1", port, null);
    }

    public int port() {
        return port;
    }

    /** Stops the process (every key and script is gone, as after a crash without persistence) and starts it again. */
    public synchronized void restart() throws IOException {
        process.stop();
        start(port);
    }

    private void start(int port) throws IOException {
        var builder = redis.embedded.RedisServer.newRedisServer().port(port)
                .setting("bind 127.0.0.1").setting("save \"\"").setting("appendonly no");
        settings.forEach(line -> builder.setting(line.replace("${port}", Integer.toString(port))));
        process = builder.build();
        process.start();
    }

    @Override
    public synchronized void close() throws IOException {
        process.stop();
    }
}
