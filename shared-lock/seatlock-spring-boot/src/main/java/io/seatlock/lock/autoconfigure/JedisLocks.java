package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisEndpoints;
import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.redis.jedis.JedisTransport;
import io.seatlock.lock.redis.spi.RedisTransport;

import java.time.Duration;

/** The lock's Jedis transport ({@code seatlock-redis-jedis}); loaded only when Jedis carries the lock. */
final class JedisLocks {

    private JedisLocks() {
    }

    static RedisTransport transport(RedisEndpoints endpoints, RedisTimeouts timeouts, Duration clusterRefresh) {
        return JedisTransport.of(endpoints, timeouts, clusterRefresh);
    }
}
