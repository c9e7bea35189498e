package io.seatlock.lock.redis;

import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockStoreRefusedException;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.redis.spi.RedisCommand;
import io.seatlock.lock.spi.CallBound;
import io.seatlock.lock.redis.spi.RedisTransport;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * How every Redis call of the lock is sent and awaited, whatever the transport: bounded by the command timeout,
 * so a silent Redis costs a caller its timeout and never a queue behind others. Until the lock has first reached
 * Redis, a call waits the connect timeout on top: a cold replica's first connection is not a Redis that is down. That
 * allowance is spent once: after a call failed before Redis ever answered, each call has the command timeout alone
 * while the transport goes on connecting, so a Redis dark from the start costs one connect wait, not one per call.
 */
final class RedisCalls implements CallBound {

    private static final Logger log = LoggerFactory.getLogger(RedisCalls.class);
    /** Our own wait ends this long after the transport's command timeout would have ended it. */
    private static final long AWAIT_SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final Runnable NOTHING = () -> { };
    /**
     * How long a command Redis refused with {@code TRYAGAIN} waits before it is sent again. Redis answers so, before
     * running anything, to a command over keys of one Cluster slot that its migration has split between two nodes
     * (resharding moves a slot's keys a batch at a time); the split lasts until the rest of the slot's keys have
     * moved, usually milliseconds.
     */
    private static final long TRY_AGAIN_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final RedisTransport transport;
    /** The transport's bounds, its own: a call waits the command timeout, a cold one the connect timeout on top. */
    private final RedisTimeouts timeouts;
    private final LockListener listener;
    /** Whether any call has had an answer from Redis: from then on a call has the command timeout alone. */
    private volatile boolean reached;
    /** Whether a call failed before Redis ever answered: the connect allowance is spent, calls have the command timeout. */
    private volatile boolean connectWaitSpent;
    /** Whether a refusal was logged at ERROR since Redis last answered. */
    private volatile boolean refusalLogged;

    RedisCalls(RedisTransport transport, LockListener listener) {
        this.transport = transport;
        this.timeouts = transport.timeouts();
        this.listener = listener;
    }

    @Override
    public Duration callTimeout() {
        return timeouts.command();
    }

    RedisTransport transport() {
        return transport;
    }

    /**
     * Sends without blocking the caller (watchdog, I/O threads). Nobody awaits the answer, so it tells the
     * transport whether the connection still answers, as an awaited one does: a client whose only traffic is
     * renewals must notice a connection gone silent too.
     */
    <T> CompletableFuture<T> send(RedisCommand<T> command) {
        long deadline = System.nanoTime() + timeouts.command().toNanos();
        return againWhileSplit(command, deadline, NOTHING, guarded(() -> transport.send(command, deadline, NOTHING)))
                .whenComplete((answer, error) -> {
                    if (error == null) {
                        answered();
                    } else {
                        transport.failed(unwrapped(error));
                    }
                });
    }

    /** Best effort, never opens a connection: null if there is none to send on. */
    <T> @Nullable CompletableFuture<T> sendIfConnected(RedisCommand<T> command) {
        return guarded(() -> transport.sendIfConnected(command));
    }

    /** How a command goes out: in the background ({@link #send}) or for a caller ({@link #within}). */
    interface Sender {
        <T> CompletableFuture<T> send(RedisCommand<T> command);
    }

    /** Sends for a caller who waits until {@code deadline}; {@code beforeSend} runs just before each command is written. */
    Sender within(long deadline, Runnable beforeSend) {
        return new Sender() {
            @Override
            public <T> CompletableFuture<T> send(RedisCommand<T> command) {
                return start(command, deadline, beforeSend);
            }
        };
    }

    /** Sends for a caller who waits until {@code deadline} and must stay interruptible meanwhile. */
    Sender interruptibly(long deadline, Runnable beforeSend) {
        return new Sender() {
            @Override
            public <T> CompletableFuture<T> send(RedisCommand<T> command) {
                return againWhileSplit(command, deadline, beforeSend, guarded(() -> transport.send(command, deadline, beforeSend)));
            }
        };
    }

    /** Sends for a caller who waits until {@code deadline}. */
    Sender within(long deadline) {
        return within(deadline, NOTHING);
    }

    /** Starts a call the caller waits for (a blocking transport runs it here), {@code beforeSend} just before it is written. */
    <T> CompletableFuture<T> start(RedisCommand<T> command, long deadline, Runnable beforeSend) {
        CompletableFuture<T> answer;
        try { // as guarded(...), without a lambda to allocate on every call of the hot path
            answer = transport.call(command, deadline, beforeSend);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return againWhileSplit(command, deadline, beforeSend, answer);
    }

    /**
     * {@code answer}, or, where Redis refused {@code command} with {@code TRYAGAIN} (nothing ran), the answer to the
     * command sent again after a pause, as often as the deadline leaves room for; then the last refusal. Only a
     * Cluster's commands over several keys can be refused so; any other answer is passed on as it is, at no cost. The
     * command is sent again by {@link RedisTransport#send}, which never blocks the thread that the pause ends on.
     */
    private <T> CompletableFuture<T> againWhileSplit(RedisCommand<T> command, long deadline, Runnable beforeSend,
                                                     CompletableFuture<T> answer) {
        if (!(transport.cluster() && command instanceof RedisCommand.Script script && script.keys().size() > 1)) {
            return answer;
        }
        return answer.exceptionallyCompose(error -> {
            // the last try leaves its answer a margin before the deadline, so the caller hears Redis' refusal
            if (!splitMidMigration(error) || deadline - System.nanoTime() <= TRY_AGAIN_PAUSE_NANOS + AWAIT_SLACK_NANOS) {
                return CompletableFuture.failedFuture(error);
            }
            Executor afterPause = CompletableFuture.delayedExecutor(TRY_AGAIN_PAUSE_NANOS, TimeUnit.NANOSECONDS, Runnable::run);
            return CompletableFuture.runAsync(NOTHING, afterPause).thenCompose(paused -> againWhileSplit(command, deadline,
                    beforeSend, guarded(() -> transport.send(command, deadline, beforeSend))));
        });
    }

    /** Whether Redis refused a command with {@code TRYAGAIN}: the client's exception, or one it wraps, says so first. */
    private static boolean splitMidMigration(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            String message = cause.getMessage();
            if (message != null && message.startsWith("TRYAGAIN")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A transport that throws instead of failing its answer still reaches the caller as a failed answer (a null, for
     * {@link #sendIfConnected} nothing sent, passes through).
     */
    private static <T> CompletableFuture<T> guarded(Supplier<CompletableFuture<T>> sending) {
        try {
            return sending.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Sends and waits, uninterruptibly (an interrupt is kept for the caller), at most the command timeout. */
    <T> T call(String group, RedisCommand<T> command) {
        long deadline = callDeadline(); // before sending: whatever sending costs is inside the bound
        return awaitUninterruptibly(group, start(command, deadline, NOTHING), deadline);
    }

    /**
     * When a call started now must have its answer: the command timeout plus a little slack, and the connect timeout
     * too while the lock has never reached Redis and no call has failed yet.
     */
    @Override
    public long callDeadline() {
        return System.nanoTime() + timeouts.command().toNanos() + AWAIT_SLACK_NANOS
                + (waitsForConnect() ? timeouts.connect().toNanos() : 0);
    }

    /** Whether a call started now has the connect timeout on top of its command timeout. */
    private boolean waitsForConnect() {
        return !reached && !connectWaitSpent;
    }

    /** Whether a call has had an answer from Redis yet. */
    boolean reached() {
        return reached;
    }

    private void answered() {
        if (!reached) {
            reached = true;
        }
        if (refusalLogged) {
            refusalLogged = false;
        }
        transport.answered();
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
            boolean cold = waitsForConnect();
            while (true) {
                try {
                    T value = answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    answered();
                    return value;
                } catch (InterruptedException e) {
                    if (interruptible) {
                        throw e;
                    }
                    interrupted = true;
                } catch (ExecutionException e) {
                    transport.failed(e.getCause());
                    throw unavailable(group, e.getCause());
                } catch (TimeoutException e) {
                    TimeoutException silent = new TimeoutException(cold && !reached
                            ? "no answer within " + timeouts.connect() + " (connect timeout) and "
                                    + timeouts.command() + " (command timeout)"
                            : "no answer within " + timeouts.command());
                    transport.failed(silent);
                    throw unavailable(group, silent);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    LockUnavailableException unavailable(String group, Throwable error) {
        Throwable cause = unwrapped(error);
        if (!reached) {
            connectWaitSpent = true;
        }
        listener.onUnavailable(group);
        log.debug("Redis unavailable for lock group '{}'", group, cause);
        String message = "Redis unavailable for lock group '" + group + "': " + UnavailableReason.of(cause, !reached);
        if (!UnavailableReason.isRefusal(cause)) {
            return new LockUnavailableException(message, cause);
        }
        if (!refusalLogged) {
            refusalLogged = true; // once until Redis answers again: a refusal repeats on every call
            log.error("seatlock lock: Redis refused the lock, and no retry mends that: {}. Fix the lock's Redis "
                    + "login (the password or user in seatlock.lock.redis-url or spring.data.redis.*), the ACL user's "
                    + "rights, or its TLS settings", message);
        }
        return new LockStoreRefusedException(message, cause);
    }

    private static Throwable unwrapped(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    void close() {
        transport.close();
    }
}
