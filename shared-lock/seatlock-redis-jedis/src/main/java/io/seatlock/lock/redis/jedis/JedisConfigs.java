package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.spi.RedisTransport;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.JedisClientConfig;

import javax.net.ssl.SSLParameters;
import java.time.Duration;

/** The Jedis client and pool settings every transport gets: its bounds on each socket, its pool's size. */
final class JedisConfigs {

    private JedisConfigs() {
    }

    /**
     * {@code config} with every timeout the command timeout, except a subscribed connection's read ("blocking")
     * timeout: our release subscription, pinged every subscriptionPingInterval, silent for that and one command
     * timeout more is one the network dropped. A call made before the lock first reached Redis has the connect timeout
     * on top (its deadline says so): the standalone pool connects within the time left before it; Jedis' own pools
     * (Sentinel, Cluster) connect within this command timeout, on the caller's thread, whatever its deadline.
     */
    static JedisClientConfig bounded(JedisClientConfig config, Duration commandTimeout) {
        return bounded(config, commandTimeout, (int) Math.min(Integer.MAX_VALUE,
                RedisTransport.subscriptionPingInterval(commandTimeout).plus(commandTimeout).toMillis()));
    }

    static JedisClientConfig bounded(JedisClientConfig config, Duration commandTimeout, int subscribedMillis) {
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, commandTimeout.toMillis()));
        // No CLIENT SETINFO on connect: without a password or database, a new connection then reads nothing before the
        // caller's command, whose read is bounded by the caller's own deadline.
        DefaultJedisClientConfig.Builder bounded = DefaultJedisClientConfig.builder().from(config)
                .connectionTimeoutMillis(millis).socketTimeoutMillis(millis).blockingSocketTimeoutMillis(subscribedMillis)
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
        if (config.isSsl() && config.getSslParameters() == null && config.getHostnameVerifier() == null) {
            // TLS checks the server's name too (as Lettuce does by default), not only its certificate chain
            SSLParameters checkName = new SSLParameters();
            checkName.setEndpointIdentificationAlgorithm("HTTPS");
            bounded.sslParameters(checkName);
        }
        return bounded.build();
    }

    static GenericObjectPoolConfig<Connection> pool(Duration commandTimeout) {
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(JedisTransport.POOL_SIZE);
        pool.setMaxIdle(JedisTransport.POOL_SIZE);
        pool.setMinIdle(0);
        pool.setMaxWait(commandTimeout);
        pool.setBlockWhenExhausted(true);
        pool.setJmxEnabled(false);
        return pool;
    }
}
