package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.CountingListener;
import io.seatlock.lock.DistributedLock;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.VirtualThreadCrowd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

/**
 * 1,000 virtual threads contending on five names of one Redis lock each take their name once, never two holders at
 * once, and pin no carrier thread (JFR's {@code jdk.VirtualThreadPinned}); on Java 21 and later (the suites run on
 * Java 25 too).
 */
class VirtualThreadsTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("VirtualThreadsTest");

    @Test
    void aThousandVirtualThreadsContendWithEveryPromiseKeptAndNoCarrierPinned() throws Exception {
        try (RedisLockClient lock = TestTransports.standalone(RedisURI.create(servers.redis().host(),
                servers.redis().port()), Duration.ofSeconds(2),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), new CountingListener())) {
            VirtualThreadCrowd.run((DistributedLock) lock, 1_000, 5);
        }
    }
}
