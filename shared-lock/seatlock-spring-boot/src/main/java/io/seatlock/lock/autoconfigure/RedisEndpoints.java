package io.seatlock.lock.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;

import java.util.List;

/**
 * Where the lock connects, whichever client carries its commands: a URL ({@code seatlock.lock.redis-url}, read by
 * the client itself), or nodes with their credentials and TLS from Spring's own Redis settings.
 *
 * @param url            {@code seatlock.lock.redis-url}, or null when the fields below say where
 * @param nodes          the server, the Sentinels, or the cluster's seeds
 * @param cluster        whether the nodes are a Redis Cluster's
 * @param sentinel       the master's name and the Sentinels' own credentials when the nodes are Sentinels, else null
 * @param username       ACL user, or null
 * @param password       password, or null
 * @param database       database index (not on a cluster)
 * @param tls            whether to use TLS
 * @param ssl            TLS material (trust, keys, protocols, ciphers) from an SSL bundle; null for the JVM's
 */
record RedisEndpoints(@Nullable String url, List<Node> nodes, boolean cluster, @Nullable Sentinel sentinel,
                      @Nullable String username, @Nullable String password, int database, boolean tls,
                      @Nullable SslBundle ssl) {

    /** A host and port. */
    record Node(String host, int port) {
    }

    /**
     * A Sentinel-managed master: its name, and how to log in to the Sentinels themselves (Spring's
     * {@code spring.data.redis.sentinel.username} and {@code .password}), which may differ from the master's.
     *
     * @param master   the master's name in the Sentinels' configuration
     * @param username the Sentinels' ACL user, or null
     * @param password the Sentinels' password, or null
     */
    record Sentinel(String master, @Nullable String username, @Nullable String password) {
    }

    static RedisEndpoints of(String url) {
        return new RedisEndpoints(url, List.of(), false, null, null, null, 0, false, null);
    }

    static RedisEndpoints clusterOf(List<String> hostsAndPorts) {
        return new RedisEndpoints(null, hostsAndPorts.stream().map(RedisEndpoints::node).toList(), true, null, null, null,
                0, false, null);
    }

    static Node node(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("a node must be host:port, was '" + hostAndPort + "'");
        }
        return new Node(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
    }
}
