package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.RedisSentinelSetup;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GH-21 item 8: a real master, replica and three Sentinels (embedded binary). A client connected to a master
 * that freezes ({@code SIGSTOP}: its kernel keeps the connection open) reaches the promoted replica within
 * two command timeouts and a connect of the failover, instead of timing out until the old master returns.
 */
class SentinelFailoverTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    @Test
    void aClientOfAFrozenMasterFollowsTheFailoverWithinTwoCommandTimeouts() throws Exception {
        try (RedisSentinelSetup redis = new RedisSentinelSetup(true, 3, Duration.ofSeconds(1));
             RedisLockClient lock = TestTransports.standalone(RedisURI.create(redis.sentinelUrl()), TIMEOUT,
                     RedisLockSettings.defaults().withInstanceId("follower"), LockListener.NOOP)) {
            long before = grant(lock, "failover").orElseThrow();
            int oldMaster = redis.master().port();

            redis.freezeMaster();
            long frozenAt = System.nanoTime();
            AtomicLong promotedAt = new AtomicLong();
            AtomicLong after = new AtomicLong();
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100)).until(() -> {
                if (promotedAt.get() == 0 && redis.currentMasterPort() != oldMaster) {
                    promotedAt.set(System.nanoTime());
                }
                grant(lock, "failover").ifPresent(after::set);
                return after.get() != 0;
            });
            long reachedAt = System.nanoTime();

            assertThat(redis.currentMasterPort()).isEqualTo(redis.replica().port());
            assertThat(promotedAt.get()).as("Sentinel promoted the replica").isPositive();
            Duration afterPromotion = Duration.ofNanos(reachedAt - promotedAt.get());
            Duration afterFreeze = Duration.ofNanos(reachedAt - frozenAt);
            // two command timeouts of silence, one connect attempt that may still meet the old master, then the
            // new one; with room for a busy machine
            assertThat(afterPromotion).as("after the promotion (%s after the freeze)", afterFreeze)
                    .isLessThan(TIMEOUT.multipliedBy(4).plusSeconds(3));
            String owner = redis.replica().with(r -> r.get(new RedisKeys(RedisLockSettings.defaults().keyPrefix()).fence("failover")));
            assertThat(Long.parseLong(owner)).as("the fence on the promoted replica").isEqualTo(after.get());
            assertThat(after.get()).as("one clock on one machine: the token still grows").isGreaterThan(before);
        }
    }

    private static Optional<Long> grant(RedisLockClient lock, String name) {
        try {
            return lock.tryAcquire(name, Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE).map(lease -> {
                try (LockLease held = lease) {
                    return held.fencingToken().value();
                }
            });
        } catch (LockUnavailableException e) {
            return Optional.empty();
        }
    }
}
