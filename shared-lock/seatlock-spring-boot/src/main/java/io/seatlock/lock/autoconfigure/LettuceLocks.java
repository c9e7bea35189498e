package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisEndpoints;
import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.redis.lettuce.LettuceTransport;
import io.seatlock.lock.redis.spi.RedisTransport;

import java.time.Duration;

/** The lock's Lettuce transport; loaded only when Lettuce carries the lock, so Lettuce may be absent otherwise. */
final class LettuceLocks {

    private LettuceLocks() {
    }

    static RedisTransport transport(RedisEndpoints endpoints, RedisTimeouts timeouts, Duration clusterRefresh) {
        return LettuceTransport.of(endpoints, timeouts, clusterRefresh);
    }
}
