package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.redis.spi.RedisCommand;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.HostAndPortMapper;
import redis.clients.jedis.JedisClientConfig;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Connecting can fail with an {@link Error} too (a class missing from the application's class path, a broken mapper
 * of the user's), while the connection provider is made or while a pooled connection is opened: the call, the lock's
 * caller and the release subscription each hear it at once, with it as the cause, rather than waiting out the timeout
 * or getting the Error itself; and the next call tries again.
 */
class JedisConnectFailureTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    /** A client config whose mapper, asked for every node a connection is opened to, fails as a missing class would. */
    private static JedisClientConfig missingClass(AtomicInteger asked) {
        HostAndPortMapper broken = node -> {
            asked.incrementAndGet();
            throw new NoClassDefFoundError("com/example/Missing");
        };
        return DefaultJedisClientConfig.builder().hostAndPortMapper(broken).build();
    }

    @Test
    void anErrorWhileConnectingFailsTheCallAtOnceWithItAndTheNextCallTriesAgain() {
        AtomicInteger asked = new AtomicInteger();
        // A cluster provider asks its seeds for the slot map as it is made, through the mapper.
        try (JedisTransport transport = JedisTransport.cluster(Set.of(new HostAndPort("127.0.0.1", 7)),
                missingClass(asked), RedisTimeouts.of(TIMEOUT))) {
            for (int call = 1; call <= 2; call++) {
                long start = System.nanoTime();

                Throwable failure = catchThrowable(() -> transport.call(new RedisCommand.Ping(),
                        System.nanoTime() + TIMEOUT.toNanos(), () -> { }).join());

                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("call %d failed at once", call)
                        .isLessThan(TIMEOUT.dividedBy(2));
                assertThat(failure).isInstanceOf(CompletionException.class)
                        .hasRootCauseInstanceOf(NoClassDefFoundError.class).hasRootCauseMessage("com/example/Missing");
                assertThat(asked).as("call %d made a connection attempt of its own", call).hasValue(call);
            }
        }
    }

    @Test
    void anErrorWhileOpeningAPooledConnectionReachesTheLocksCallerAsUnavailableWithItsCause() {
        // A standalone provider opens a connection on the first borrow, the caller's own call.
        try (RedisLockClient lock = RedisLockClient.over(JedisTransport.standalone(new HostAndPort("127.0.0.1", 7),
                missingClass(new AtomicInteger()), RedisTimeouts.of(TIMEOUT)),
                RedisLockSettings.defaults(), LockListener.NOOP)) {
            long start = System.nanoTime();

            Throwable failure = catchThrowable(() -> lock.tryAcquire("connect-error", Duration.ofSeconds(10),
                    OverlapImpact.WASTED_WORK));

            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("failed at once").isLessThan(TIMEOUT.dividedBy(2));
            assertThat(failure).as("as every other failure to reach Redis, the cause kept")
                    .isInstanceOf(LockUnavailableException.class)
                    .hasRootCauseInstanceOf(NoClassDefFoundError.class).hasRootCauseMessage("com/example/Missing");
        }
    }

    @Test
    void anErrorWhileConnectingFailsTheReleaseSubscriptionAtOnceWithIt() {
        // A standalone provider connects on the first borrow: here, the subscription's own connection.
        try (JedisTransport transport = JedisTransport.standalone(new HostAndPort("127.0.0.1", 7),
                missingClass(new AtomicInteger()), RedisTimeouts.of(TIMEOUT))) {
            long start = System.nanoTime();

            Throwable failure = catchThrowable(() -> transport.subscribe("released:*", channel -> { })
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));

            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("failed at once").isLessThan(TIMEOUT.dividedBy(2));
            assertThat(failure).isInstanceOf(ExecutionException.class)
                    .hasRootCauseInstanceOf(NoClassDefFoundError.class).hasRootCauseMessage("com/example/Missing");
        }
    }
}
