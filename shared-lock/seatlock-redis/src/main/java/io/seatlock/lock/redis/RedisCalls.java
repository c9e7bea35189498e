package io.seatlock.lock.redis;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * How every Redis call of the lock is sent and awaited: without waiting for a connection of its own (a
 * connect under way is shared), and bounded by the command timeout, so a silent Redis costs a caller its
 * timeout and never a queue behind others.
 */
final class RedisCalls {

    private static final Logger log = LoggerFactory.getLogger(RedisCalls.class);
    /** Our own wait ends this long after Lettuce's command timeout would have ended it. */
    private static final long AWAIT_SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final RedisConnector redis;
    private final Duration commandTimeout;
    private final LockListener listener;

    RedisCalls(RedisConnector redis, Duration commandTimeout, LockListener listener) {
        this.redis = redis;
        this.commandTimeout = commandTimeout;
        this.listener = listener;
    }

    Duration commandTimeout() {
        return commandTimeout;
    }

    /** The connection's commands if it is up; null while (re)connecting. Never opens one. */
    @Nullable RedisClusterAsyncCommands<String, String> connectedOrNull() {
        return redis.connectedOrNull();
    }

    /** Sends without waiting; a connect under way is shared with every other caller. */
    <T> CompletableFuture<T> send(Function<RedisClusterAsyncCommands<String, String>, CompletableFuture<T>> command) {
        return send(redis.connectedOrNull(), command);
    }

    /** Sends on {@code connected}, or once the shared connect attempt has made a connection (if null). */
    <T> CompletableFuture<T> send(@Nullable RedisClusterAsyncCommands<String, String> connected,
                                  Function<RedisClusterAsyncCommands<String, String>, CompletableFuture<T>> command) {
        try {
            return connected != null ? command.apply(connected) : redis.commands().thenCompose(command);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Sends and waits, uninterruptibly (an interrupt is kept for the caller), at most the command timeout. */
    <T> T call(String group, Function<RedisClusterAsyncCommands<String, String>, CompletableFuture<T>> command) {
        long deadline = callDeadline(); // before sending: whatever sending costs is inside the bound
        return awaitUninterruptibly(group, send(command), deadline);
    }

    /** When a call started now must have its answer: the command timeout plus a little slack. */
    long callDeadline() {
        return System.nanoTime() + commandTimeout.toNanos() + AWAIT_SLACK_NANOS;
    }

    /** Waits until {@code deadline} (a {@link System#nanoTime()}), keeping an interrupt for the caller. */
    <T> T awaitUninterruptibly(String group, CompletableFuture<T> answer, long deadline) {
        try {
            return await(group, answer, false, deadline);
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible wait was interrupted", e); // cannot happen
        }
    }

    /**
     * Waits for an answer until {@code deadline}. An uninterruptible wait keeps the interrupt for the caller;
     * it is bounded anyway.
     */
    <T> T await(String group, CompletableFuture<T> answer, boolean interruptible, long deadline)
            throws InterruptedException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    T value = answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    redis.answered();
                    return value;
                } catch (InterruptedException e) {
                    if (interruptible) {
                        throw e;
                    }
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RedisCommandTimeoutException) {
                        reconnectIfSilent();
                    }
                    throw unavailable(group, e.getCause());
                } catch (TimeoutException e) {
                    reconnectIfSilent();
                    throw unavailable(group, new RedisCommandTimeoutException("no answer within " + commandTimeout));
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void reconnectIfSilent() {
        if (redis.timedOut(commandTimeout)) {
            log.warn("no answer from Redis for two command timeouts ({} each): closed the connection; the next call "
                    + "connects afresh (through Sentinel, to the current master)", commandTimeout);
        }
    }

    LockUnavailableException unavailable(String group, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        listener.onUnavailable(group);
        log.debug("Redis unavailable for lock group '{}'", group, cause);
        return new LockUnavailableException("Redis unavailable for lock group '" + group + "': " + cause.getMessage(),
                cause);
    }

    void close() {
        redis.close();
    }
}
