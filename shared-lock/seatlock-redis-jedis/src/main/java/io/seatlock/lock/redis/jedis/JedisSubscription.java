package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.spi.RedisTransport;
import io.seatlock.lock.internal.DaemonThreads;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.JedisPubSub;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The release subscription: a connection of its own (taken out of the pool for good), on a thread of its own,
 * subscribed again after a lost connection until closed: one closed, or silent for six command timeouts (the
 * config's blocking read timeout) though pinged every five. The first subscription's outcome is reported;
 * later losses are retried every second, as Lettuce re-subscribes after a reconnect.
 */
final class JedisSubscription {
    private static final Logger log = LoggerFactory.getLogger(JedisSubscription.class);
    private static final long RESUBSCRIBE_PAUSE_MILLIS = 1_000;
    private static final ThreadFactory SUBSCRIBING = DaemonThreads.named("seatlock-jedis-releases");

    private final JedisTransport transport;
    private final String pattern;
    private final Consumer<String> onMessage;
    private final CompletableFuture<AutoCloseable> subscribed = new CompletableFuture<>();
    private final Thread thread;
    private volatile boolean ended;
    private volatile @Nullable Connection connection;

    JedisSubscription(JedisTransport transport, String pattern, Consumer<String> onMessage) {
        this.transport = transport;
        this.pattern = pattern;
        this.onMessage = onMessage;
        this.thread = SUBSCRIBING.newThread(this::listen);
    }

    private void listen() {
        while (!ended && !transport.isClosed()) {
            Connection current = null;
            try {
                current = transport.provider(System.nanoTime() + commandTimeout().toNanos()).getConnection();
                connection = current;
                JedisPubSub pubSub = new JedisPubSub() {
                    @Override
                    public void onPMessage(String subscribedPattern, String channel, String message) {
                        onMessage.accept(channel);
                    }

                    @Override
                    public void onPSubscribe(String subscribedPattern, int count) {
                        subscribed.complete(JedisSubscription.this::close);
                        pingLater(this);
                    }
                };
                pubSub.proceedWithPatterns(current, pattern); // reads until closed, or six command timeouts of silence
            } catch (RuntimeException | Error e) { // an Error too: else the first subscription's future never completes
                if (!subscribed.isDone()) {
                    subscribed.completeExceptionally(e);
                    ended = true;
                } else if (!ended) {
                    log.debug("release subscription lost; subscribing again", e);
                }
            } finally {
                if (current != null) {
                    current.setBroken(); // subscribed: never back into the pool
                    current.close();
                }
            }
            if (!ended && !transport.isClosed()) {
                try {
                    Thread.sleep(RESUBSCRIBE_PAUSE_MILLIS); // a pause between reconnects, not a wait for an event
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /**
     * Keeps the subscribed connection talking: a PING every
     * {@link RedisTransport#subscriptionPingInterval(Duration)} while this subscription lasts. Its answer is read
     * (and ignored) by the subscriber's thread, whose bounded read is what notices a connection that stopped
     * answering.
     */
    private void pingLater(JedisPubSub pubSub) {
        Executor later = CompletableFuture.delayedExecutor(
                RedisTransport.subscriptionPingInterval(commandTimeout()).toMillis(), TimeUnit.MILLISECONDS,
                transport.background());
        later.execute(() -> {
            if (ended || transport.isClosed() || !pubSub.isSubscribed()) {
                return;
            }
            try {
                pubSub.ping();
                pingLater(pubSub);
            } catch (RuntimeException e) {
                log.debug("could not ping the release subscription; its reader will notice", e);
            }
        });
    }

    void close() {
        ended = true;
        transport.ended(this);
        Connection current = connection;
        if (current != null) {
            try {
                current.forceDisconnect(); // ends the blocking read on the subscriber's thread
            } catch (Exception e) {
                log.debug("could not disconnect the release subscription", e);
            }
        }
        thread.interrupt();
    }

    CompletableFuture<AutoCloseable> start() {
        thread.start();
        return subscribed;
    }

    private Duration commandTimeout() {
        return transport.timeouts().command();
    }
}
