package io.seatlock.localservers;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A Redis server that answers, and how it was found.
 *
 * @param source   configured, local, testcontainers or embedded
 * @param host     host to connect to
 * @param port     port to connect to
 * @param password its password, or null
 */
public record RedisServer(String source, String host, int port, String password) {

    private static final Logger log = LoggerFactory.getLogger(RedisServer.class);

    public RedisURI uri() {
        RedisURI.Builder b = RedisURI.builder().withHost(host).withPort(port).withTimeout(Duration.ofSeconds(5));
        if (password != null && !password.isEmpty()) {
            b.withPassword(password.toCharArray());
        }
        return b.build();
    }

    /** Runs {@code work} on a short-lived connection. */
    public <T> T with(Function<RedisCommands<String, String>, T> work) {
        return onConnection(uri(), work);
    }

    /** Runs {@code work} on a short-lived connection to {@code uri} (another user's, say). */
    public static <T> T onConnection(RedisURI uri, Function<RedisCommands<String, String>, T> work) {
        RedisClient client = shortLivedClient(uri);
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            return work.apply(c.sync());
        } finally {
            shutDown(client);
        }
    }

    /** A client on threads shared by every short-lived connection, instead of new event loops per call. */
    private static RedisClient shortLivedClient(RedisURI uri) {
        return RedisClient.create(SharedThreads.RESOURCES, uri);
    }

    /**
     * Lets the client's connections go, waiting at most 3 s. Not Lettuce's {@code shutdown()}: it waits on its
     * own future without a bound, and that future sometimes never completes (lettuce#2278; it hung a test run).
     */
    public static void shutDown(RedisClient client) {
        try {
            client.shutdownAsync(0, 1, TimeUnit.SECONDS).get(3, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            log.warn("a short-lived Redis client did not shut down cleanly: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class SharedThreads {
        static final ClientResources RESOURCES = DefaultClientResources.create();
    }

    /** Calls per command since start or {@code CONFIG RESETSTAT}, from {@code INFO commandstats} (lower-case names). */
    public Map<String, Long> commandCalls() {
        return commandStats("calls");
    }

    /**
     * One counter of {@code INFO commandstats} per command (lower-case names), since start or {@code CONFIG RESETSTAT}:
     * {@code calls}, or {@code usec}, the microseconds spent in it (a command a script runs counts under its own name
     * and inside its {@code EVALSHA} too).
     */
    public Map<String, Long> commandStats(String counter) {
        String key = counter + "=";
        Map<String, Long> values = new TreeMap<>();
        for (String line : with(r -> r.info("commandstats")).split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                int colon = line.indexOf(':');
                for (String field : line.substring(colon + 1).split(",")) {
                    if (field.startsWith(key)) {
                        values.put(line.substring("cmdstat_".length(), colon), Long.parseLong(field.substring(key.length())));
                    }
                }
            }
        }
        return values;
    }

    /** Connections the server has accepted since start, this call's own included ({@code INFO stats}). */
    public long connectionsReceived() {
        for (String line : with(r -> r.info("stats")).split("\r?\n")) {
            if (line.startsWith("total_connections_received:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new IllegalStateException(this + " reports no total_connections_received");
    }

    /** A {@code SENTINEL} subcommand answered with a status ({@code OK}), on a Sentinel: {@code sentinel("failover", name)}. */
    public String sentinel(String... arguments) {
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
        for (String argument : arguments) {
            args.add(argument);
        }
        return with(r -> r.dispatch(CommandType.SENTINEL, new StatusOutput<>(StringCodec.UTF8), args));
    }

    /** Deletes every key that starts with {@code prefix}; returns how many. */
    public long deleteKeys(String prefix) {
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("refusing to delete keys without a prefix");
        }
        return with(redis -> {
            long deleted = 0;
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                KeyScanCursor<String> page = redis.scan(cursor, ScanArgs.Builder.matches(prefix + "*").limit(500));
                if (!page.getKeys().isEmpty()) {
                    deleted += redis.unlink(page.getKeys().toArray(String[]::new));
                }
                cursor = page;
            } while (!cursor.isFinished());
            return deleted;
        });
    }

    @Override
    public String toString() {
        return source + " Redis at " + host + ":" + port;
    }
}
