package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.FaultProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * A call made before the lock first reached Redis waits for the connection within the connect timeout, on top of its
 * command timeout: a first connection that takes several command timeouts (a cold replica on a busy machine) is not
 * a Redis that is down. Once the lock has reached Redis, a call has its command timeout alone; so does every call after
 * one that failed before Redis ever answered, while the transport goes on connecting: a Redis dark from the start
 * costs one connect wait, not one per call.
 */
class ColdConnectTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ColdConnectTest");

    private static final Duration COMMAND = Duration.ofMillis(500);
    private static final Duration CONNECT = Duration.ofSeconds(10);
    /** How long the first connection stays dark: three command timeouts, far inside the connect timeout. */
    private static final Duration SLOW_CONNECT = COMMAND.multipliedBy(3);

    @Test
    void aCallWhileTheFirstConnectionIsMadeWaitsForItThenLaterCallsHaveTheCommandTimeoutAlone() throws Exception {
        try (FaultProxy proxy = new FaultProxy(servers.redis().host(), servers.redis().port());
             RedisLockClient lock = TestTransports.standalone(RedisURI.create(proxy.host(), proxy.port()),
                     new RedisTimeouts(CONNECT, COMMAND), RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()),
                     LockListener.NOOP)) {
            proxy.blackhole(); // the first connection is accepted and then says nothing, as a slow start would
            long start = System.nanoTime();
            CompletableFuture<Optional<LockLease>> first = CompletableFuture.supplyAsync(
                    () -> lock.tryAcquire("cold", Duration.ofSeconds(30), OverlapImpact.WASTED_WORK));
            await().atMost(Duration.ofSeconds(30)).until(() -> proxy.stalledReads() > 0
                    && System.nanoTime() - start >= SLOW_CONNECT.toNanos());
            proxy.heal();

            LockLease lease = first.get(30, TimeUnit.SECONDS).orElseThrow();
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(tookMillis).as("the first call outlasted its command timeout, and was granted")
                    .isGreaterThanOrEqualTo(SLOW_CONNECT.toMillis());
            String owner = servers.redis().with(r -> r.get(new RedisKeys(servers.keyPrefix()).lock("cold")));
            assertThat(owner).isEqualTo(lease.ownerToken());
            lease.release();

            proxy.blackhole();
            long warm = System.nanoTime();
            Throwable failure = catchThrowable(() -> lock.tryAcquire("warm", Duration.ofSeconds(30),
                    OverlapImpact.WASTED_WORK));
            long warmMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - warm);
            assertThat(failure).isInstanceOf(LockUnavailableException.class);
            assertThat(warmMillis).as("a call once connected has the command timeout alone")
                    .isLessThan(COMMAND.toMillis() + 500);
            proxy.heal();
        }
    }

    @Test
    void aRedisDarkFromTheStartCostsOneConnectWaitThenEachCallItsCommandTimeout() throws Exception {
        Duration connect = COMMAND.multipliedBy(6);
        try (FaultProxy proxy = new FaultProxy(servers.redis().host(), servers.redis().port());
             RedisLockClient lock = TestTransports.standalone(RedisURI.create(proxy.host(), proxy.port()),
                     new RedisTimeouts(connect, COMMAND), RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()),
                     LockListener.NOOP)) {
            proxy.blackhole(); // accepts the connection and never answers, from the very start
            long first = timedUnavailableCall(lock, "dark-1");
            assertThat(first).as("the first call waits for the connection: connect timeout and command timeout")
                    .isGreaterThanOrEqualTo(connect.toMillis());
            for (int call = 0; call < 5; call++) {
                long later = timedUnavailableCall(lock, "dark-" + (call + 2)); // a late grant holds its own name
                assertThat(later).as("call %d after a failed first one: the command timeout alone", call + 2)
                        .isGreaterThanOrEqualTo(COMMAND.toMillis()).isLessThan(COMMAND.toMillis() + 500);
            }
            proxy.heal(); // the transport, connecting on, reaches Redis: calls are granted again
            LockLease lease = await().atMost(Duration.ofSeconds(30)).ignoreExceptionsInstanceOf(
                    LockUnavailableException.class).until(() -> lock.tryAcquire("after-dark", Duration.ofSeconds(30),
                    OverlapImpact.WASTED_WORK), Optional::isPresent).orElseThrow();
            String owner = servers.redis().with(r -> r.get(new RedisKeys(servers.keyPrefix()).lock("after-dark")));
            assertThat(owner).isEqualTo(lease.ownerToken());
            lease.release();
        }
    }

    /** One call that must fail as unavailable, and how long it took in milliseconds. */
    private static long timedUnavailableCall(RedisLockClient lock, String name) {
        long start = System.nanoTime();
        Throwable failure = catchThrowable(() -> lock.tryAcquire(name, Duration.ofSeconds(30), OverlapImpact.WASTED_WORK));
        assertThat(failure).isInstanceOf(LockUnavailableException.class);
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
}
