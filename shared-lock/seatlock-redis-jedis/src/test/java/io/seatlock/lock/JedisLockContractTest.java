package io.seatlock.lock;

import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.redis.jedis.JedisTransport;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;

import java.time.Duration;

/** The published contract and the Redis lock's own cases ({@link RedisLockContractTest}), on the Jedis transport. */
class JedisLockContractTest extends RedisLockContractTest {

    @Override
    protected RedisLockClient connect(String host, int port, Duration commandTimeout, RedisLockSettings settings,
                                      LockListener listener) {
        return RedisLockClient.over(JedisTransport.standalone(new HostAndPort(host, port),
                DefaultJedisClientConfig.builder().build(), commandTimeout), settings, listener);
    }
}
