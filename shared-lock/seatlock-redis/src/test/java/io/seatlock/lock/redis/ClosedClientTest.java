package io.seatlock.lock.redis;

import io.seatlock.lock.LockClosedException;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.localservers.OwnedRedis;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A closed client says so: every call is an {@link IllegalStateException} naming it, at once and with nothing sent,
 * never a "Redis unavailable" that would send an operator looking at a healthy Redis.
 */
class ClosedClientTest {

    private static final Duration WASTED = Duration.ofSeconds(30);

    @Test
    void everyCallOfAClosedClientIsRefusedAtOnceAndSendsNothing() throws Exception {
        try (OwnedRedis redis = new OwnedRedis()) {
            RedisLockClient lock = TestTransports.standalone(redis.server().uri(), Duration.ofSeconds(2),
                    RedisLockSettings.defaults(), LockListener.NOOP);
            LockLease held = lock.tryAcquire("closing:held", WASTED, OverlapImpact.WASTED_WORK).orElseThrow();
            lock.close();
            lock.close(); // again: nothing more to do
            Map<String, Long> before = redis.server().commandCalls();

            Map<String, ThrowingCallable> calls = Map.of(
                    "tryAcquire", () -> lock.tryAcquire("closing:a", WASTED, OverlapImpact.WASTED_WORK),
                    "tryAcquireUnlessDecided", () -> lock.tryAcquireUnlessDecided("closing:a", WASTED,
                            OverlapImpact.WASTED_WORK),
                    "acquire", () -> lock.acquire("closing:a", WASTED, OverlapImpact.WASTED_WORK, Duration.ofSeconds(20)),
                    "remainingTtl", () -> lock.remainingTtl("closing:held"),
                    "holder", () -> lock.holder("closing:held"),
                    "held", () -> lock.held(List.of("closing:held")),
                    "heldNames", () -> lock.heldNames("closing:"),
                    "whenReleased", () -> lock.whenReleased("closing:held"),
                    "awaitRelease", () -> lock.awaitRelease("closing:held", Duration.ofSeconds(20)),
                    "ping", lock::ping);
            calls.forEach((what, call) -> {
                long start = System.nanoTime();
                assertThatThrownBy(call).as(what).isInstanceOf(LockClosedException.class)
                        .hasMessageContaining("closed");
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as(what).isLessThan(Duration.ofSeconds(1));
            });
            assertThatThrownBy(held::renew).isInstanceOf(IllegalStateException.class);
            assertThat(held.release()).isEqualTo(ReleaseOutcome.ALREADY_RELEASED);

            Map<String, Long> after = redis.server().commandCalls();
            // What changed is the counting itself: its INFO and the handshake of its own short-lived connection.
            assertThat(after.keySet().stream().filter(command -> !after.get(command).equals(before.get(command))))
                    .as("nothing sent after the close").allMatch(command -> command.equals("info")
                            || command.equals("hello") || command.startsWith("client"));
            Long locks = redis.server().with(r -> r.exists("seatlock:lock:{closing:held}", "seatlock:lock:{closing:a}"));
            assertThat(locks).as("the held lock released on close, nothing taken after it").isZero();
        }
    }
}
