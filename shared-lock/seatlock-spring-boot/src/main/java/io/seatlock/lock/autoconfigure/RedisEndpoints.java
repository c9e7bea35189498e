package io.seatlock.lock.autoconfigure;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import org.jspecify.annotations.Nullable;

import java.util.List;

/** Where the lock connects: its Redis node(s), whether they form a cluster, and TLS material if any. */
record RedisEndpoints(List<RedisURI> nodes, boolean cluster, @Nullable SslOptions ssl) {

    static RedisEndpoints of(String url) {
        RedisURI uri = RedisURI.create(url);
        return new RedisEndpoints(List.of(uri), false, null);
    }

    static RedisEndpoints clusterOf(List<String> hostsAndPorts) {
        return new RedisEndpoints(hostsAndPorts.stream().map(RedisEndpoints::node).toList(), true, null);
    }

    static RedisURI node(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("cluster node must be host:port, was '" + hostAndPort + "'");
        }
        return RedisURI.create(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
    }
}
