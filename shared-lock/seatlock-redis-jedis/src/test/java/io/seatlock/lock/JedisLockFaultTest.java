package io.seatlock.lock;

import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.redis.jedis.JedisTransport;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;

import java.time.Duration;

/** The lock with Redis black-holed, cut or slow ({@link LockFaultTest}), on the Jedis transport. */
class JedisLockFaultTest extends LockFaultTest {

    @Override
    protected RedisLockClient connect(String host, int port, Duration commandTimeout, RedisLockSettings settings,
                                      LockListener listener) {
        return RedisLockClient.over(JedisTransport.standalone(new HostAndPort(host, port),
                DefaultJedisClientConfig.builder().build(), commandTimeout), settings, listener);
    }
}
