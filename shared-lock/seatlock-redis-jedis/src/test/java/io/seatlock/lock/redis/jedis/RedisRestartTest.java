package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.OwnedRedis;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a Redis restart costs the Jedis transport, as the README says: a pooled connection that was idle across the
 * restart is found dead on its next use, that one call fails (never hangs, never succeeds by mistake) and the
 * connection is replaced; the next call works.
 */
class RedisRestartTest {

    @Test
    void anIdleConnectionFailsOneCallAfterARestartAndIsReplaced() throws Exception {
        try (OwnedRedis redis = new OwnedRedis();
             RedisLockClient lock = RedisLockClient.over(JedisTransport.standalone(new HostAndPort("127.0.0.1", redis.port()),
                     DefaultJedisClientConfig.builder().build(), RedisTimeouts.of(Duration.ofSeconds(2))), RedisLockSettings.defaults(),
                     LockListener.NOOP)) {
            lock.tryAcquire("restart:before", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK).orElseThrow().release();

            redis.restart();

            long start = System.nanoTime();
            assertThatThrownBy(() -> lock.tryAcquire("restart:after", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK))
                    .isInstanceOf(LockUnavailableException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
            long written = redis.server().with(r -> r.exists(new RedisKeys("seatlock:").lock("restart:after")));
            assertThat(written).as("the failed call wrote nothing").isZero();

            try (LockLease lease = lock.tryAcquire("restart:after", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                    .orElseThrow()) {
                String owner = redis.server().with(r -> r.get(new RedisKeys("seatlock:").lock("restart:after")));
                assertThat(owner).isEqualTo(lease.ownerToken());
            }
        }
    }
}
