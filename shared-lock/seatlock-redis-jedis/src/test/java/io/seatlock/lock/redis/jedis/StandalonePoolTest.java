package io.seatlock.lock.redis.jedis;

import io.seatlock.localservers.OwnedRedis;
import io.seatlock.localservers.RedisServer;
import io.seatlock.test.FaultProxy;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.authentication.AuthXManager;
import redis.clients.authentication.core.SimpleToken;
import redis.clients.authentication.core.TokenAuthConfig;
import redis.clients.jedis.exceptions.JedisConnectionException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * The standalone transport's own pool: what it lends, reuses, closes, and how long a borrow may take.
 */
class StandalonePoolTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final String PASSWORD = "pool-test";

    @Test
    void aBorrowThatWaitedThenOpensAConnectionWhoseHandshakeStallsEndsAtItsDeadline() throws Exception {
        try (OwnedRedis redis = new OwnedRedis("requirepass " + PASSWORD);
             FaultProxy proxy = new FaultProxy("127.0.0.1", redis.port());
             StandalonePool pool = new StandalonePool(new HostAndPort(proxy.host(), proxy.port()), withPassword(), TIMEOUT, 1)) {
            Connection lent = pool.borrow(deadline());
            proxy.blackhole(); // new connections are accepted, and their AUTH never answered
            // the one connection comes back broken (as after a command that timed out) half a timeout into the wait
            CompletableFuture.runAsync(() -> {
                lent.setBroken();
                lent.close();
            }, CompletableFuture.delayedExecutor(TIMEOUT.toMillis() / 2, TimeUnit.MILLISECONDS));

            long start = System.nanoTime();
            Throwable failure = catchThrowable(() -> pool.borrow(start + TIMEOUT.toNanos()));
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(failure).isInstanceOf(JedisConnectionException.class);
            assertThat(took).as("the wait and the stalled handshake together, against the command timeout of %s", TIMEOUT)
                    .isGreaterThan(TIMEOUT.minusMillis(50))
                    .isLessThan(TIMEOUT.multipliedBy(5).dividedBy(4));
            assertThat(lent.isConnected()).as("the broken connection was closed").isFalse();

            proxy.heal();
            Connection next = pool.borrow(deadline());
            assertThat(ping(next)).as("the failed open gave its place back").isEqualTo("PONG");
            next.close();
        }
    }

    @Test
    void neverLendsMoreThanItsSizeAndServesEveryBorrowFromThoseConnections() throws Exception {
        int size = 4;
        int threads = 16;
        int borrowsEach = 100;
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        try (OwnedRedis redis = new OwnedRedis();
             StandalonePool pool = plainPool(redis, size)) {
            long connectionsBefore = redis.server().connectionsReceived();
            AtomicInteger lent = new AtomicInteger();
            AtomicInteger mostLent = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            List<CompletableFuture<Void>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(CompletableFuture.runAsync(() -> {
                    awaitQuietly(start);
                    for (int i = 0; i < borrowsEach; i++) {
                        Connection connection = pool.borrow(System.nanoTime() + Duration.ofMinutes(1).toNanos());
                        mostLent.accumulateAndGet(lent.incrementAndGet(), Math::max);
                        try {
                            assertThat(ping(connection)).isEqualTo("PONG");
                        } finally {
                            lent.decrementAndGet();
                            connection.close();
                        }
                    }
                }, callers));
            }
            start.countDown();
            CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);

            assertThat(mostLent.get()).as("connections lent at once").isBetween(1, size);
            // this reading's own connection is one of those received since the first reading
            assertThat(redis.server().connectionsReceived() - connectionsBefore - 1)
                    .as("connections Redis accepted for %d borrows", threads * borrowsEach).isBetween(1L, (long) size);
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aBrokenConnectionIsClosedAndNeverLentAgain() throws Exception {
        try (OwnedRedis redis = new OwnedRedis();
             StandalonePool pool = plainPool(redis, 2)) {
            Connection first = pool.borrow(deadline());
            long firstId = clientId(first);
            first.setBroken();
            first.close();

            Connection second = pool.borrow(deadline());
            long secondId = clientId(second);
            second.close();
            Connection third = pool.borrow(deadline());
            long thirdId = clientId(third);
            third.close();

            assertThat(first.isConnected()).isFalse();
            assertThat(secondId).as("a new connection after the broken one").isNotEqualTo(firstId);
            assertThat(thirdId).as("a healthy connection handed back is lent again").isEqualTo(secondId);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(redis.server().<String>with(r -> r.clientList())).doesNotContain("id=" + firstId + " "));
        }
    }

    @Test
    void aConnectionHandedBackTwiceIsLentOnce() throws Exception {
        try (OwnedRedis redis = new OwnedRedis();
             StandalonePool pool = plainPool(redis, 1)) {
            Connection connection = pool.borrow(deadline());
            connection.close();
            connection.close();

            Connection lent = pool.borrow(deadline());
            assertThatThrownBy(() -> pool.borrow(System.nanoTime() + Duration.ofMillis(200).toNanos()))
                    .as("one connection lent, and the pool has one").isInstanceOf(JedisConnectionException.class)
                    .hasMessageContaining("no pooled connection came free");
            assertThat(ping(lent)).isEqualTo("PONG");
            lent.close();
        }
    }

    @Test
    void closingDisconnectsTheIdleConnectionsAndEachHandedBackLater() throws Exception {
        try (OwnedRedis redis = new OwnedRedis()) {
            StandalonePool pool = plainPool(redis, 2);
            Connection idle = pool.borrow(deadline());
            Connection lent = pool.borrow(deadline());
            ping(idle);
            ping(lent);
            idle.close();

            pool.close();

            assertThat(idle.isConnected()).isFalse();
            assertThat(lent.isConnected()).as("still the caller's until handed back").isTrue();
            lent.close();
            assertThat(lent.isConnected()).isFalse();
            assertThatThrownBy(() -> pool.borrow(deadline())).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(redis.server().<String>with(r -> r.clientList()).lines().count())
                            .as("only this reading's own connection").isOne());
        }
    }

    @Test
    void aWaitForAConnectionEndsAtTheDeadlineOrAtAnInterrupt() throws Exception {
        try (OwnedRedis redis = new OwnedRedis();
             StandalonePool pool = plainPool(redis, 1)) {
            Connection held = pool.borrow(deadline());
            long heldId = clientId(held);

            Duration wait = Duration.ofMillis(300);
            long start = System.nanoTime();
            assertThatThrownBy(() -> pool.borrow(start + wait.toNanos())).isInstanceOf(JedisConnectionException.class)
                    .hasMessageContaining("no pooled connection came free");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(wait.minusMillis(1));

            CompletableFuture<Throwable> interrupted = new CompletableFuture<>();
            CompletableFuture<Boolean> flagKept = new CompletableFuture<>();
            Thread waiter = new Thread(() -> {
                interrupted.complete(catchThrowable(() -> pool.borrow(System.nanoTime() + Duration.ofMinutes(1).toNanos())));
                flagKept.complete(Thread.currentThread().isInterrupted());
            });
            waiter.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
            waiter.interrupt();

            assertThat(interrupted.get(30, TimeUnit.SECONDS)).isInstanceOf(JedisConnectionException.class)
                    .hasMessageContaining("interrupted");
            assertThat(flagKept.get(30, TimeUnit.SECONDS)).isTrue();
            held.close();
            Connection again = pool.borrow(deadline());
            assertThat(clientId(again)).as("the connection held through both waits, lent again").isEqualTo(heldId);
            again.close();
        }
    }

    @Test
    void aConnectionWhoseTokenWasRenewedAuthenticatesAgainBeforeItIsLent() throws Exception {
        AtomicInteger tokensIssued = new AtomicInteger();
        // the first token is renewed half-way through its second; the second lasts the test
        TokenAuthConfig renewing = TokenAuthConfig.builder().expirationRefreshRatio(0.5f).tokenRequestExecTimeoutInMs(10_000)
                .maxAttemptsToRetry(3).delayInMsToRetry(100).identityProviderConfig(() -> () -> {
            long now = System.currentTimeMillis();
            return tokensIssued.incrementAndGet() == 1 ? new SimpleToken("app", "token-1", now + 1_000, now, Map.of())
                    : new SimpleToken("app", "token-2", now + 600_000, now, Map.of());
        }).build();
        try (OwnedRedis redis = new OwnedRedis("user app on >token-1 >token-2 ~* &* +@all");
             StandalonePool pool = new StandalonePool(new HostAndPort("127.0.0.1", redis.port()),
                     DefaultJedisClientConfig.builder().authXManager(new AuthXManager(renewing)).build(), TIMEOUT, 2)) {
            Connection first = pool.borrow(deadline());
            long id = clientId(first);
            first.close();
            assertThat(authentications(redis.server())).isOne();

            await().atMost(Duration.ofSeconds(30)).until(() -> tokensIssued.get() >= 2);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Connection again = pool.borrow(deadline());
                try {
                    assertThat(clientId(again)).as("the same connection, lent again").isEqualTo(id);
                } finally {
                    again.close();
                }
                assertThat(authentications(redis.server())).as("AUTH with the renewed token, once").isEqualTo(2);
            });
            Connection later = pool.borrow(deadline());
            assertThat(ping(later)).isEqualTo("PONG");
            later.close();
            assertThat(authentications(redis.server())).as("nothing more to send").isEqualTo(2);
            assertThat(redis.server().<String>with(r -> r.clientList())).contains("id=" + id + " ").contains("user=app");
        }
    }

    /** A pool of {@code size} to {@code redis}, no password. */
    private static StandalonePool plainPool(OwnedRedis redis, int size) {
        return new StandalonePool(new HostAndPort("127.0.0.1", redis.port()), DefaultJedisClientConfig.builder().build(),
                TIMEOUT, size);
    }

    private static JedisClientConfig withPassword() {
        return DefaultJedisClientConfig.builder().password(PASSWORD).build();
    }

    private static long deadline() {
        return System.nanoTime() + TIMEOUT.toNanos();
    }

    private static String ping(Connection connection) {
        connection.sendCommand(Protocol.Command.PING);
        return connection.getStatusCodeReply();
    }

    private static long authentications(RedisServer redis) {
        return redis.commandCalls().getOrDefault("auth", 0L);
    }

    private static long clientId(Connection connection) {
        connection.sendCommand(Protocol.Command.CLIENT, "ID");
        return connection.getIntegerReply();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
