package io.seatlock.lock.redis.spi;

import io.seatlock.lock.internal.Durations;
import io.seatlock.lock.redis.RedisTimeouts;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * How the Redis lock reaches Redis: one implementation per client library, each a module of its own (Lettuce in
 * {@code seatlock-redis}, Jedis in {@code seatlock-redis-jedis}). The lock's logic, scripts and key layout stay
 * in {@code RedisLockClient}; a transport only carries {@link RedisCommand}s, each bounded by the command timeout.
 * Thread-safe.
 */
public interface RedisTransport extends AutoCloseable {

    /**
     * Which client library this is, for status pages.
     *
     * @return e.g. {@code lettuce}, {@code jedis}
     */
    String client();

    /**
     * How long a connection may take to make, and how long a command may take once connected (reconnecting or
     * borrowing a connection included).
     *
     * @return the bounds
     */
    RedisTimeouts timeouts();

    /**
     * Whether this is a Redis Cluster (no {@link RedisCommand.ReplicatedScript} is sent to one).
     *
     * @return true for a cluster
     */
    boolean cluster();

    /**
     * A command for a caller who waits for it: a blocking transport may run it on the calling thread, but must
     * give up by {@code deadlineNanos}. {@code beforeSend} runs once, just before the command is written
     * (after any connect), so the caller can start a lease's clock no earlier than Redis could run it.
     *
     * @param command       the command
     * @param deadlineNanos a {@link System#nanoTime()} by which to have answered or failed
     * @param beforeSend    run just before the command is written
     * @param <T>           its answer
     * @return the answer, or the error
     */
    <T> CompletableFuture<T> call(RedisCommand<T> command, long deadlineNanos, Runnable beforeSend);

    /**
     * A command that never blocks the calling thread: for the watchdog's renewals, releases on close, and callers
     * who must stay interruptible while they wait. Gives up by {@code deadlineNanos}; {@code beforeSend} as for
     * {@link #call}.
     *
     * @param command       the command
     * @param deadlineNanos a {@link System#nanoTime()} by which to have answered or failed
     * @param beforeSend    run just before the command is written
     * @param <T>           its answer
     * @return the answer, or the error
     */
    <T> CompletableFuture<T> send(RedisCommand<T> command, long deadlineNanos, Runnable beforeSend);

    /**
     * Best effort clean-up that must not open a connection: sends like {@link #send}, within the command timeout,
     * if connected, else nothing.
     *
     * @param command the command
     * @param <T>     its answer
     * @return the answer, or null if nothing was sent
     */
    <T> @Nullable CompletableFuture<T> sendIfConnected(RedisCommand<T> command);

    /**
     * A pattern subscription on a connection of its own, kept (re-subscribed) after a reconnect until closed. A
     * subscribed connection has nothing else to say, so one that a network dropped without a word (a NAT or load
     * balancer forgetting it) would go unnoticed: the transport sends a {@code PING} on it every
     * {@link #subscriptionPingInterval(Duration)}, and makes the subscription again on a new connection when nothing comes
     * back within the command timeout.
     *
     * @param pattern   a {@code PSUBSCRIBE} pattern
     * @param onMessage told the channel of each message, on the transport's own thread; must not block
     * @return completes with the subscription (close it to end it) once Redis confirmed it, or with the error
     */
    CompletableFuture<AutoCloseable> subscribe(String pattern, Consumer<String> onMessage);

    /**
     * How often a subscribed connection is checked with a {@code PING}: five command timeouts (10 s for the
     * default 2 s), rare enough to cost Redis nothing, and a lost subscription is found within six.
     *
     * @param commandTimeout the transport's command timeout
     * @return the interval
     */
    static Duration subscriptionPingInterval(Duration commandTimeout) {
        return commandTimeout.multipliedBy(5);
    }

    /**
     * How often a Cluster transport reads the cluster's layout (which master serves which slots) again unless told
     * otherwise, besides sooner where it can tell the layout changed (a redirection, a node it cannot reconnect to):
     * after a master fails, the lock finds the promoted replica within this of the promotion. Redisson's cluster scan
     * runs as often by default.
     */
    Duration DEFAULT_CLUSTER_REFRESH = Duration.ofSeconds(5);

    /**
     * Checks a Cluster transport's refresh period.
     *
     * @param clusterRefresh how often to read the cluster's layout again
     * @return {@code clusterRefresh}
     * @throws IllegalArgumentException unless it is positive
     */
    static Duration requirePositiveRefresh(Duration clusterRefresh) {
        return Durations.requirePositive(clusterRefresh, "the cluster refresh period");
    }

    /** A call got its answer: a transport may track that the connection is alive. */
    default void answered() {
    }

    /**
     * A call failed or got no answer within its bound ({@code error} is then a
     * {@link java.util.concurrent.TimeoutException}): a transport may drop a silent connection.
     *
     * @param error what the call failed with
     */
    default void failed(Throwable error) {
    }

    /** Closes every connection; commands sent after fail. */
    @Override
    void close();
}
