package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.RedisTimeouts;
import io.lettuce.core.RedisURI;
import io.seatlock.lock.redis.TransportUnderTest;
import io.seatlock.lock.redis.spi.RedisTransport;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Runs seatlock-redis' own suites (contract, faults, fencing, hand-over, ACL, Sentinel failover, Cluster,
 * replicated grants) on the Jedis transport: the same servers, described by the suites as Lettuce URIs, reached
 * through Jedis.
 */
public final class JedisTransportUnderTest implements TransportUnderTest {

    @Override
    public RedisTransport standalone(RedisURI uri, RedisTimeouts timeouts) {
        if (!uri.getSentinels().isEmpty()) {
            Set<HostAndPort> sentinels = uri.getSentinels().stream().map(s -> new HostAndPort(s.getHost(), s.getPort()))
                    .collect(Collectors.toSet());
            return JedisTransport.sentinel(uri.getSentinelMasterId(), sentinels, config(uri),
                    DefaultJedisClientConfig.builder().build(), timeouts);
        }
        return JedisTransport.standalone(new HostAndPort(uri.getHost(), uri.getPort()), config(uri),
                timeouts);
    }

    @Override
    public RedisTransport cluster(List<RedisURI> seeds, RedisTimeouts timeouts) {
        return JedisTransport.cluster(seeds.stream().map(s -> new HostAndPort(s.getHost(), s.getPort()))
                .collect(Collectors.toSet()), config(seeds.get(0)), timeouts);
    }

    private static JedisClientConfig config(RedisURI uri) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder().ssl(uri.isSsl()).database(uri.getDatabase());
        if (uri.getUsername() != null) {
            config.user(uri.getUsername());
        }
        if (uri.getPassword() != null) {
            config.password(new String(uri.getPassword()));
        }
        return config.build();
    }
}
