package io.seatlock.lock.autoconfigure;

import io.lettuce.core.RedisURI;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;

/** Translates Spring's Redis connection settings into a Lettuce URI for the lock. */
final class RedisEndpoints {

    private RedisEndpoints() {
    }

    static RedisURI node(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("cluster node must be host:port, was '" + hostAndPort + "'");
        }
        return RedisURI.create(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
    }

    static RedisURI fromSpring(DataRedisConnectionDetails details) {
        if (details == null) {
            return RedisURI.create("127.0.0.1", 6379);
        }
        RedisURI.Builder builder;
        DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
        if (sentinel != null) {
            builder = RedisURI.builder().withSentinelMasterId(sentinel.getMaster());
            sentinel.getNodes().forEach(n -> builder.withSentinel(n.host(), n.port()));
            builder.withDatabase(sentinel.getDatabase());
        } else {
            DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
            builder = RedisURI.builder().withHost(standalone.getHost()).withPort(standalone.getPort())
                    .withDatabase(standalone.getDatabase());
        }
        if (details.getPassword() != null) {
            if (details.getUsername() != null) {
                builder.withAuthentication(details.getUsername(), details.getPassword());
            } else {
                builder.withPassword(details.getPassword().toCharArray());
            }
        }
        builder.withSsl(details.getSslBundle() != null);
        return builder.build();
    }
}
