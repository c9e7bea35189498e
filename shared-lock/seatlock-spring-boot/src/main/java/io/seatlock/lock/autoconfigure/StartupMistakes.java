package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.redis.RedisEndpoints;
import io.seatlock.lock.internal.Causes;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Answers of Redis, at the lock's first connect, that no retry mends: the settings ask for something the server is
 * not. Anything else (refused, silent, a login turned down while a password rotates) lets the application start.
 */
final class StartupMistakes {

    private StartupMistakes() {
    }

    static @Nullable InvalidSeatlockConfigurationException of(LockUnavailableException failure, RedisEndpoints endpoints) {
        if (endpoints.tlsAsked() && endpoints.firstNode() != null && speaksPlainRedis(endpoints.firstNode())) {
            // a TLS client's hello is no command to Redis: it waits for more, and the handshake times out
            return new InvalidSeatlockConfigurationException("The seatlock lock asks for TLS (rediss:// in "
                            + "seatlock.lock.redis-url or cluster-nodes, or spring.data.redis.ssl), but Redis at "
                            + endpoints.describe() + " answers without TLS on that port (" + failure.getMessage() + ")",
                    "Connect without TLS (redis:// in seatlock.lock.redis-url or cluster-nodes, or "
                            + "spring.data.redis.ssl.enabled=false), or connect to the server's TLS port.", failure);
        }
        for (Throwable cause : Causes.of(failure)) { // clients wrap a node's refusal in causes and suppressed ones
            String message = cause.getMessage() == null ? "" : cause.getMessage();
            if (message.toLowerCase(Locale.ROOT).contains("cluster support disabled")) {
                return new InvalidSeatlockConfigurationException("The seatlock lock is set up for a Redis Cluster "
                                + "(seatlock.lock.cluster-nodes or spring.data.redis.cluster.nodes), but "
                                + endpoints.describe() + " is a server without cluster support: " + message,
                        "Use seatlock.lock.redis-url (or spring.data.redis.host) for a single server or a Sentinel "
                                + "set-up; seatlock.lock.cluster-nodes and spring.data.redis.cluster.nodes are for a "
                                + "Redis Cluster only.", failure);
            }
        }
        return null;
    }

    /** How long the check of a port for plain Redis may take (it runs only on a failed start-up connect over TLS). */
    private static final int PROBE_MILLIS = 1_000;

    /** Whether {@code node} answers an inline {@code PING} in Redis' protocol, without TLS. */
    private static boolean speaksPlainRedis(RedisEndpoints.Node node) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(node.host(), node.port()), PROBE_MILLIS);
            socket.setSoTimeout(PROBE_MILLIS);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            int first = socket.getInputStream().read();
            return first == '+' || first == '-'; // +PONG, or -NOAUTH where it asks a login: Redis either way
        } catch (IOException e) {
            return false;
        }
    }
}
