package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockListener;

import java.time.Duration;
import java.util.List;
import java.util.ServiceLoader;

/** Clients on the {@link TransportUnderTest}: Lettuce's own factories, or the registered transport's. */
public final class TestTransports {

    private static final TransportUnderTest TRANSPORT = ServiceLoader.load(TransportUnderTest.class).findFirst()
            .orElse(new TransportUnderTest() {
                @Override
                public LettuceTransport standalone(RedisURI uri, Duration commandTimeout) {
                    return LettuceTransport.standalone(uri, commandTimeout, null);
                }

                @Override
                public LettuceTransport cluster(List<RedisURI> seeds, Duration commandTimeout) {
                    return LettuceTransport.cluster(seeds, commandTimeout, null);
                }
            });

    private TestTransports() {
    }

    /** A client of one Redis server, on the transport under test. */
    public static RedisLockClient standalone(RedisURI uri, Duration commandTimeout, RedisLockSettings settings,
                                             LockListener listener) {
        return RedisLockClient.over(TRANSPORT.standalone(uri, commandTimeout), settings, listener);
    }

    /** A client of a Redis Cluster, on the transport under test. */
    public static RedisLockClient cluster(List<RedisURI> seeds, Duration commandTimeout, RedisLockSettings settings,
                                          LockListener listener) {
        return RedisLockClient.over(TRANSPORT.cluster(seeds, commandTimeout), settings, listener);
    }
}
