package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.OwnedRedis;
import io.seatlock.test.FaultProxy;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A call whose pooled connection times out on a frozen Redis costs its caller the command timeout, also while more
 * callers than the pool has connections wait for one. Jedis' pool (commons-pool, under Sentinel and Cluster, and under
 * one server before the transport had its own) replaces a destroyed connection for a waiting borrower on the thread
 * that destroys it: were that the caller's, it would open a connection for somebody else after its own deadline (a
 * handshake that stalls as long again, on a Redis that asks a password).
 */
class JedisCallBoundTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final int CALLERS = JedisTransport.POOL_SIZE + 16;

    @Test
    void aTimedOutCallReturnsAtItsDeadlineWhileOthersWaitForAConnection() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        try (OwnedRedis redis = new OwnedRedis("requirepass bound-test");
             FaultProxy proxy = new FaultProxy("127.0.0.1", redis.port());
             RedisLockClient lock = RedisLockClient.over(JedisTransport.standalone(new HostAndPort(proxy.host(), proxy.port()),
                     DefaultJedisClientConfig.builder().password("bound-test").build(), RedisTimeouts.of(TIMEOUT)),
                     RedisLockSettings.defaults(), LockListener.NOOP)) {
            // Every pooled connection opened and idle: each warm-up call holds its connection for a few slow round
            // trips, so the callers, started at once, each need one.
            proxy.delay(Duration.ofMillis(25));
            run(callers, i -> lock.tryAcquire("bound:warm:" + i, Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                    .orElseThrow().release());
            proxy.blackhole();

            List<Duration> took = run(callers, i -> {
                Throwable failure = catchThrowable(() -> lock.tryAcquire("bound:" + i, Duration.ofSeconds(10),
                        OverlapImpact.WASTED_WORK));
                assertThat(failure).isInstanceOf(LockUnavailableException.class);
            });

            assertThat(took).as("each caller's wait, against the command timeout of %s", TIMEOUT)
                    .allSatisfy(wait -> assertThat(wait).isLessThan(TIMEOUT.multipliedBy(5).dividedBy(4)));
        } finally {
            callers.shutdownNow();
        }
    }

    /** Runs {@code call} on {@value #CALLERS} threads at once; how long each took. */
    private static List<Duration> run(ExecutorService callers, Call call) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<Duration>> calls = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            int caller = i;
            calls.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await();
                    long began = System.nanoTime();
                    call.run(caller);
                    return Duration.ofNanos(System.nanoTime() - began);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, callers));
        }
        start.countDown();
        List<Duration> took = new ArrayList<>();
        for (CompletableFuture<Duration> each : calls) {
            took.add(each.get(1, TimeUnit.MINUTES));
        }
        return took;
    }

    private interface Call {
        void run(int caller);
    }
}
