package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.LockListener;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.redis.TestTransports;
import io.seatlock.lock.redis.TransportUnderTest;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;

/** Guards the point of this module's test run: seatlock-redis' suites reach Redis through Jedis here. */
class SuitesRunOnJedisTest {

    @Test
    void theSuitesClientsAreOnTheJedisTransport() {
        assertThat(ServiceLoader.load(TransportUnderTest.class).findFirst()).get().isInstanceOf(JedisTransportUnderTest.class);
        try (RedisLockClient client = TestTransports.standalone(RedisURI.create("127.0.0.1", 6379), Duration.ofSeconds(2),
                RedisLockSettings.defaults(), LockListener.NOOP)) {
            assertThat(client.ping()).isPositive();
        }
    }
}
