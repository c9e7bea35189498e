package io.seatlock.lock.redis;

import io.lettuce.core.api.sync.RedisCommands;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.OwnedRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The token rule, max(last + 1, server time in µs), on a Redis of the test's own (it flushes and counts
 * commands): tokens strictly increase whatever the fence holds, and a grant costs the commands the README
 * counts.
 */
class FencingTokenTest {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static OwnedRedis redis;
    private RedisLockClient lock;
    private final RedisKeys keys = new RedisKeys(RedisLockSettings.defaults().keyPrefix());

    @BeforeAll
    static void startRedis() throws IOException {
        redis = new OwnedRedis();
    }

    @AfterAll
    static void stopRedis() throws IOException {
        redis.close();
    }

    @BeforeEach
    void connect() {
        lock = TestTransports.standalone(redis.server().uri(), Duration.ofSeconds(2), RedisLockSettings.defaults(),
                LockListener.NOOP);
    }

    @AfterEach
    void close() {
        lock.close();
    }

    private long grant(String name) {
        return grant(lock, name);
    }

    private static long grant(RedisLockClient client, String name) {
        try (LockLease lease = client.tryAcquire(name, TTL, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            return lease.fencingToken().value();
        }
    }

    private <T> T redis(Function<RedisCommands<String, String>, T> work) {
        return redis.server().with(work);
    }

    private long serverMicros() {
        List<String> time = redis(RedisCommands::time);
        return Long.parseLong(time.get(0)) * 1_000_000 + Long.parseLong(time.get(1));
    }

    @Test
    void aFenceAheadOfTheServerClockIsCountedOnNotOverwritten() {
        long ahead = serverMicros() + Duration.ofMinutes(10).toNanos() / 1000; // a clock that stepped back 10 min
        redis(r -> r.set(keys.fence("stepped-back"), Long.toString(ahead)));

        long first = grant("stepped-back");
        long second = grant("stepped-back");

        assertThat(first).isEqualTo(ahead + 1);
        assertThat(second).isEqualTo(ahead + 2);
        String fence = redis(r -> r.get(keys.fence("stepped-back")));
        long fenceTtl = redis(r -> r.pttl(keys.fence("stepped-back")));
        assertThat(fence).isEqualTo(Long.toString(ahead + 2));
        assertThat(fenceTtl).isGreaterThan(Duration.ofMinutes(59).toMillis());
    }

    /**
     * Where no fence is ahead, the token is the server's microsecond, and the fence keeps it; the script writes the
     * microseconds padded to six digits, so grants in the first tenth of a second are the ones that would show a
     * missing zero (a token ten times too small). Fresh names until three such grants were seen.
     */
    @Test
    void withNoFenceAheadTheTokenIsTheServersMicrosecond() {
        int earlyInTheirSecond = 0;
        for (int i = 0; i < 5_000 && earlyInTheirSecond < 3; i++) {
            String name = "micro-" + i;
            long before = serverMicros();
            long token = grant(name);
            long after = serverMicros();

            assertThat(token).as("grant %d", i).isBetween(before, after);
            String fence = redis(r -> r.get(keys.fence(name)));
            assertThat(fence).isEqualTo(Long.toString(token));
            if (token % 1_000_000 < 100_000) {
                earlyInTheirSecond++;
            }
        }
        assertThat(earlyInTheirSecond).as("grants in the first tenth of their second").isEqualTo(3);
    }

    @Test
    void aFenceAtTheCurrentMicrosecondStillGivesALargerToken() {
        long now = serverMicros();
        redis(r -> r.set(keys.fence("same-micro"), Long.toString(now)));

        assertThat(grant("same-micro")).isGreaterThan(now);
    }

    @Test
    void tokensKeepGrowingAfterFlushall() {
        long before = grant("flushed");
        redis(RedisCommands::flushall);

        assertThat(grant("flushed")).isGreaterThan(before);
    }

    @Test
    void tokensKeepGrowingAfterTheFenceIsRestoredToAnOldValue() {
        long old = grant("restored");
        long later = grant("restored");
        redis(r -> r.set(keys.fence("restored"), Long.toString(old))); // e.g. a backup restored

        assertThat(grant("restored")).isGreaterThan(later);
    }

    @Test
    void aFenceThatIsNotANumberCountsAsForgotten() {
        long before = grant("garbled");
        redis(r -> r.set(keys.fence("garbled"), "not a number"));

        assertThat(grant("garbled")).isGreaterThan(before);
    }

    /**
     * A failover to a replica that has lost the fence and whose clock is behind the old master's hands a
     * second client a smaller token; a client that was granted the larger one does not go backwards, and its
     * next grant lifts the fence above it for everyone.
     */
    @Test
    void aClientThatSawALargerTokenNeverGoesBackwardsAndLiftsTheFenceForOthers() {
        long oldMastersClock = serverMicros() + Duration.ofMinutes(10).toNanos() / 1000; // ten minutes ahead
        redis(r -> r.set(keys.fence("failover"), Long.toString(oldMastersClock)));
        long beforeFailover = grant("failover");
        redis(RedisCommands::flushall); // the promoted replica: no fence, and its clock is the "behind" one
        try (RedisLockClient other = TestTransports.standalone(redis.server().uri(), Duration.ofSeconds(2),
                RedisLockSettings.defaults().withInstanceId("other"), LockListener.NOOP)) {
            long otherClientsToken = grant(other, "failover");
            assertThat(otherClientsToken).as("where no client saw the larger token, the clock decides")
                    .isLessThan(beforeFailover);

            long afterFailover = grant("failover");
            assertThat(afterFailover).isGreaterThan(beforeFailover);
            assertThat(grant(other, "failover")).isGreaterThan(afterFailover);
        }
    }

    @Test
    void anAcquireAndReleaseCostsSevenRedisCommands() {
        grant("counted"); // loads the scripts, so the count below is the steady state
        redis(RedisCommands::configResetstat);

        int pairs = 20;
        for (int i = 0; i < pairs; i++) {
            grant("counted");
        }

        Map<String, Long> calls = redis.server().commandCalls();
        calls.keySet().removeAll(List.of("config", "info", "hello", "client")); // this test's own connections
        assertThat(calls).isEqualTo(Map.of("evalsha", 2L * pairs, "set", 2L * pairs, "time", (long) pairs,
                "get", (long) pairs, "del", (long) pairs));
        assertThat(calls.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(7L * pairs);
    }
}
