package io.seatlock.lock.redis.lettuce;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.seatlock.lock.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Connects lazily, so an app can start while Redis is down; Lettuce reconnects after. Callers that
 * arrive while a connect is under way share that one attempt and each waits only its own time bound:
 * a black-holed server never makes callers queue behind each other. A failed attempt is forgotten, so
 * the next call tries again.
 *
 * <p>A connection that stays silent while calls time out (no answer for two command timeouts) is closed
 * and a new one made on the next call: a frozen or partitioned master keeps a TCP connection open (its
 * kernel still acknowledges), so Lettuce would never reconnect, and with Sentinel a new connection is
 * what finds the promoted master.
 */
final class RedisConnector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisConnector.class);
    private static final long ANSWER_STAMP_GRAIN_NANOS = 10_000_000;
    /** Longest a close waits for Lettuce to let its connection and threads go (its event loops get 2 s of it). */
    private static final Duration SHUTDOWN_BOUND = Duration.ofSeconds(3);
    private static final ThreadFactory CONNECTING = DaemonThreads.named("seatlock-redis-connect");

    private final AbstractRedisClient client;
    private final Supplier<CompletableFuture<StatefulConnection<String, String>>> connect;
    private final Function<StatefulConnection<String, String>, RedisClusterAsyncCommands<String, String>> commands;
    private final Supplier<CompletableFuture<StatefulRedisPubSubConnection<String, String>>> connectPubSub;
    private final AtomicReference<CompletableFuture<RedisClusterAsyncCommands<String, String>>> attempt =
            new AtomicReference<>();
    private volatile RedisClusterAsyncCommands<String, String> connected;
    private final AtomicReference<StatefulConnection<String, String>> connection = new AtomicReference<>();
    /** Run once, when the first connection has been made. */
    private final Runnable onFirstConnection;
    private final AtomicBoolean connectedOnce = new AtomicBoolean();
    /** When a call last got an answer (coarse: written at most every few milliseconds). */
    private volatile long lastAnswerNanos = System.nanoTime();

    private RedisConnector(AbstractRedisClient client,
                           Supplier<CompletableFuture<StatefulConnection<String, String>>> connect,
                           Function<StatefulConnection<String, String>, RedisClusterAsyncCommands<String, String>> commands,
                           Supplier<CompletableFuture<StatefulRedisPubSubConnection<String, String>>> connectPubSub,
                           Runnable onFirstConnection) {
        this.client = client;
        this.connect = connect;
        this.commands = commands;
        this.connectPubSub = connectPubSub;
        this.onFirstConnection = onFirstConnection;
    }

    /**
     * Lettuce's own computation threads (its client resources' event executors), for work that must not run on
     * the I/O thread. Not CompletableFuture's default executor: with fewer than 3 cores that starts a thread per task.
     */
    Executor computation() {
        return client.getResources().eventExecutorGroup();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static RedisConnector standalone(RedisClient client, RedisURI uri, Runnable onFirstConnection) {
        return new RedisConnector(client,
                () -> (CompletableFuture) client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture(),
                c -> ((StatefulRedisConnection<String, String>) c).async(),
                () -> client.connectPubSubAsync(StringCodec.UTF8, uri).toCompletableFuture(), onFirstConnection);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static RedisConnector cluster(RedisClusterClient client, Runnable onFirstConnection) {
        // The async connect needs the slot map first; loading it is part of the same bounded attempt.
        return new RedisConnector(client, () -> (CompletableFuture) client.refreshPartitionsAsync().toCompletableFuture()
                        .thenCompose(loaded -> client.connectAsync(StringCodec.UTF8)),
                c -> ((StatefulRedisClusterConnection<String, String>) c).async(),
                () -> (CompletableFuture) client.connectPubSubAsync(StringCodec.UTF8).toCompletableFuture(),
                onFirstConnection);
    }

    /** A pub/sub connection of its own (a subscribed connection takes no other commands), on a thread of its own. */
    CompletableFuture<StatefulRedisPubSubConnection<String, String>> connectPubSub() {
        return CompletableFuture.supplyAsync(connectPubSub, command -> CONNECTING.newThread(command).start())
                .thenCompose(Function.identity());
    }

    /** The commands if a connection was made, else null: for best-effort clean-up that must not connect. */
    RedisClusterAsyncCommands<String, String> connectedOrNull() {
        return connected;
    }

    /** The commands once connected; until then, the one shared connect attempt (never blocks). */
    CompletableFuture<RedisClusterAsyncCommands<String, String>> commands() {
        RedisClusterAsyncCommands<String, String> ready = connected;
        if (ready != null) {
            return CompletableFuture.completedFuture(ready);
        }
        while (true) {
            CompletableFuture<RedisClusterAsyncCommands<String, String>> current = attempt.get();
            if (current != null && !current.isCompletedExceptionally()) {
                return current;
            }
            CompletableFuture<RedisClusterAsyncCommands<String, String>> fresh = new CompletableFuture<>();
            if (attempt.compareAndSet(current, fresh)) {
                // Started on a thread of its own: a first connect also builds Lettuce's event loops and
                // loads Netty, which would otherwise run on the caller's thread, outside its bound.
                CompletableFuture.supplyAsync(connect, command -> CONNECTING.newThread(command).start())
                        .thenCompose(Function.identity()).whenComplete((connection, error) -> {
                    if (error != null) {
                        fresh.completeExceptionally(error);
                    } else {
                        lastAnswerNanos = System.nanoTime();
                        if (connectedOnce.compareAndSet(false, true)) {
                            onFirstConnection.run();
                        }
                        this.connection.set(connection);
                        connected = commands.apply(connection);
                        fresh.complete(connected);
                    }
                });
                return fresh;
            }
        }
    }

    /** A call got its answer. */
    void answered() {
        long now = System.nanoTime();
        if (now - lastAnswerNanos > ANSWER_STAMP_GRAIN_NANOS) {
            lastAnswerNanos = now;
        }
    }

    /**
     * A call timed out. If nothing has answered for two timeouts, the connection is closed (what waits on it
     * fails at once) and the next call connects afresh.
     *
     * @return true if this call closed the connection
     */
    boolean timedOut(Duration timeout) {
        StatefulConnection<String, String> silent = connection.get();
        if (silent == null || System.nanoTime() - lastAnswerNanos < 2 * timeout.toNanos()
                || !connection.compareAndSet(silent, null)) {
            return false;
        }
        lastAnswerNanos = System.nanoTime();
        connected = null;
        attempt.set(null);
        silent.closeAsync();
        return true;
    }

    /**
     * Shuts the client down (which closes each of its connections), then its resources (the transport made them for
     * this client alone, so they go even when the client's own shutdown fails or is late), waiting at most
     * {@link #SHUTDOWN_BOUND} for both. Not Lettuce's {@code shutdown()}: it waits on its own future without a bound,
     * and that future sometimes never completes (lettuce#2278), which would hang an application's shutdown.
     */
    @Override
    public void close() {
        long deadline = System.nanoTime() + SHUTDOWN_BOUND.toNanos();
        try {
            awaitShutdown(client.shutdownAsync(0, 2, TimeUnit.SECONDS), deadline, "the Redis client");
        } finally {
            awaitShutdown(client.getResources().shutdown(0, 2, TimeUnit.SECONDS), deadline, "the Redis client's threads");
        }
    }

    private static void awaitShutdown(Future<?> shutdown, long deadline, String what) {
        try {
            shutdown.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            log.warn("{} did not shut down within {}; its threads are left to the JVM", what, SHUTDOWN_BOUND);
        } catch (ExecutionException e) {
            log.warn("{}: shutdown failed: {}", what, e.getCause().toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
