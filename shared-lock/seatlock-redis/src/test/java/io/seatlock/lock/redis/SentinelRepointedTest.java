package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.OwnedRedis;
import io.seatlock.localservers.OwnedSentinel;
import io.seatlock.localservers.RedisServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

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
    private static final RedisKeys KEYS = new RedisKeys(RedisLockSettings.defaults().keyPrefix());

    @Test
    void theLockFollowsASentinelThatNamesAnotherMasterWithoutAnnouncingIt() throws Exception {
        try (OwnedRedis second = new OwnedRedis()) {
            OwnedRedis first = new OwnedRedis();
            try (OwnedSentinel sentinel = new OwnedSentinel(MASTER, first.port());
                 RedisLockClient lock = TestTransports.warmedUp(TestTransports.standalone(
                         RedisURI.Builder.sentinel("127.0.0.1", sentinel.server().port(), MASTER).build(), TIMEOUT,
                         RedisLockSettings.defaults(), LockListener.NOOP))) {
                assertThat(grantLandsOn(lock, first.server())).as("first on the master the Sentinel named").isTrue();

                sentinel(sentinel.server(), "remove", MASTER);
                sentinel(sentinel.server(), "monitor", MASTER, "127.0.0.1", Integer.toString(second.port()), "1");
                first.close();

                await("a grant on the master the Sentinel names now").atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(200)).until(() -> grantLandsOn(lock, second.server()));
            } finally {
                first.close();
            }
        }
    }

    private static void sentinel(RedisServer sentinel, String... arguments) {
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
        for (String argument : arguments) {
            args.add(argument);
        }
        sentinel.with(r -> r.dispatch(CommandType.SENTINEL, new StatusOutput<>(StringCodec.UTF8), args));
    }

    /** Whether a grant made now is written on {@code node}; false while the lock cannot reach a master. */
    private static boolean grantLandsOn(RedisLockClient lock, RedisServer node) {
        String name = "repointed:job";
        Optional<LockLease> lease;
        try {
            lease = lock.tryAcquire(name, Duration.ofSeconds(10), OverlapImpact.WASTED_WORK);
        } catch (LockUnavailableException e) {
            return false;
        }
        try (LockLease held = lease.orElseThrow()) {
            return held.ownerToken().equals(node.with(r -> r.get(KEYS.lock(name))));
        }
    }
}
