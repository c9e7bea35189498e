package io.seatlock.lock.shedlock;

import io.seatlock.lock.redis.TestTransports;
import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.test.FaultProxy;
import io.seatlock.localservers.IsolatedServers;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What ShedLock's executor does on a failed extend: it unlocks the same handle, which must still work. */
class SeatlockLockProviderFaultTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatlockLockProviderFaultTest");

    @Test
    void anExtendThatFailsWithRedisDownLeavesTheHandleUnlockable() throws Exception {
        try (FaultProxy proxy = new FaultProxy(servers.redis().host(), servers.redis().port());
             RedisLockClient lock = TestTransports.standalone(RedisURI.create(proxy.host(), proxy.port()),
                     Duration.ofMillis(500), RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()),
                     LockListener.NOOP)) {
            TestTransports.warmedUp(lock);
            SeatlockLockProvider provider = new SeatlockLockProvider(lock);
            SimpleLock job = provider.lock(new LockConfiguration(Instant.now(), "job:extend-down", Duration.ofSeconds(30),
                    Duration.ZERO)).orElseThrow();
            assertThat(lock.heldLeases()).hasSize(1);
            proxy.down();

            assertThatThrownBy(() -> job.extend(Duration.ofSeconds(30), Duration.ZERO))
                    .isInstanceOf(LockUnavailableException.class);
            // ShedLock's executor now unlocks the same handle: a spent handle would throw IllegalStateException
            // and leave the lease listed as held until the client closes.
            assertThatThrownBy(job::unlock).isInstanceOf(LockUnavailableException.class);
            assertThat(lock.heldLeases()).as("the lease ended locally; health and /actuator/locks drop it").isEmpty();
        }
    }
}
