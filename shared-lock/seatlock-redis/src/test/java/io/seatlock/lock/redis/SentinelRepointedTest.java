package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockListener;
import io.seatlock.localservers.OwnedRedis;
import io.seatlock.localservers.OwnedSentinel;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Sentinel that comes to name another master without announcing a switch: an operator moving the master by hand
 * ({@code SENTINEL REMOVE}, then {@code MONITOR}), or a Sentinel that was behind when the client asked it and caught
 * up before the client listened. Once the old master is gone, the lock goes where the Sentinels now point.
 */
class SentinelRepointedTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final String MASTER = "repointed";
    private static final String JOB = "repointed:job";

    @Test
    void theLockFollowsASentinelThatNamesAnotherMasterWithoutAnnouncingIt() throws Exception {
        try (OwnedRedis second = new OwnedRedis()) {
            OwnedRedis first = new OwnedRedis();
            try (OwnedSentinel sentinel = new OwnedSentinel(MASTER, first.port());
                 RedisLockClient lock = TestTransports.warmedUp(TestTransports.standalone(
                         RedisURI.Builder.sentinel("127.0.0.1", sentinel.server().port(), MASTER).build(), TIMEOUT,
                         RedisLockSettings.defaults(), LockListener.NOOP))) {
                assertThat(TestTransports.grantLandsOn(lock, JOB, first.server())).as("first on the master the Sentinel named")
                        .isTrue();

                sentinel.server().sentinel("remove", MASTER);
                sentinel.server().sentinel("monitor", MASTER, "127.0.0.1", Integer.toString(second.port()), "1");
                first.close();

                await("a grant on the master the Sentinel names now").atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(200)).until(() -> TestTransports.grantLandsOn(lock, JOB, second.server()));
            } finally {
                first.close();
            }
        }
    }
}
