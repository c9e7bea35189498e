package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.redis.spi.RedisTransport;

import java.util.List;

/**
 * The transport this module's suites run on: Lettuce unless a transport module's tests register another (a
 * {@link java.util.ServiceLoader} entry), and then run these same suites against it.
 */
public interface TransportUnderTest {

    /**
     * A transport to one server, or to a Sentinel-managed master if the URI names Sentinels.
     *
     * @param uri            the server, user and password, TLS, or the Sentinels and the master's name
     * @param timeouts       how long to connect, how long a command waits
     * @return a transport that connects on first use
     */
    RedisTransport standalone(RedisURI uri, RedisTimeouts timeouts);

    /**
     * A transport to a Redis Cluster.
     *
     * @param seeds          some of its nodes
     * @param timeouts       how long to connect, how long a command waits
     * @return a transport that connects on first use
     */
    RedisTransport cluster(List<RedisURI> seeds, RedisTimeouts timeouts);
}
