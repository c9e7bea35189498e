package io.seatlock.lock.redis;

import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** keepAlive called late in a lease's term renews it, instead of waiting a third of the ttl past the give-up time. */
class KeepAliveTimingTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("KeepAliveTimingTest");

    @Test
    void aKeepAliveCalledWhenTwoThirdsOfTheTermAreGoneRenewsAtOnce() {
        Duration ttl = Duration.ofSeconds(3);
        try (RedisLockClient lock = TestTransports.standalone(servers.redis().uri(), Duration.ofSeconds(2),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), LockListener.NOOP)) {
            LockLease lease = lock.tryAcquire("late-keep-alive", ttl, OverlapImpact.WASTED_WORK).orElseThrow();
            // Wait on the lease's own clock until 60 % of the term is gone (the issue's +1.8 s of 3 s).
            await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(10))
                    .until(() -> lease.validFor().compareTo(Duration.ofMillis(1200)) <= 0);
            assertThat(lease.isValid()).as("still inside its term when kept alive").isTrue();
            AtomicBoolean lost = new AtomicBoolean();
            lease.keepAlive(() -> lost.set(true));

            // Renewed: Redis' ttl goes back up towards 3 s and the local deadline moves beyond the original one.
            await().atMost(Duration.ofSeconds(2)).until(() -> lease.validFor().compareTo(Duration.ofMillis(1500)) > 0);
            long pttl = servers.redis().with(r -> r.pttl(new RedisKeys(servers.keyPrefix()).lock("late-keep-alive")));
            assertThat(pttl).isGreaterThan(1500);
            assertThat(lost).isFalse();
            assertThat(lease.isLost()).isFalse();
            lease.release();
        }
    }
}
