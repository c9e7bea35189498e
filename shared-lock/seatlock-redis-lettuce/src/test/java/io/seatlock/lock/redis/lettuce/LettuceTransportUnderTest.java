package io.seatlock.lock.redis.lettuce;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.redis.TransportUnderTest;
import io.seatlock.lock.redis.spi.RedisTransport;

import java.util.List;

/** seatlock-redis' suites, run on this module's transport. */
public final class LettuceTransportUnderTest implements TransportUnderTest {

    @Override
    public RedisTransport standalone(RedisURI uri, RedisTimeouts timeouts) {
        return LettuceTransport.standalone(uri, timeouts, null);
    }

    @Override
    public RedisTransport cluster(List<RedisURI> seeds, RedisTimeouts timeouts) {
        return LettuceTransport.cluster(seeds, timeouts, null);
    }
}
