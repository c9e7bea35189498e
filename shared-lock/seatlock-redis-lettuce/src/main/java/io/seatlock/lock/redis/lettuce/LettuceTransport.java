package io.seatlock.lock.redis.lettuce;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.seatlock.lock.redis.RedisEndpoints;
import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.redis.spi.RedisCommand;
import io.seatlock.lock.redis.spi.RedisTransport;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The Redis lock's Lettuce transport: one shared, pipelined connection (asynchronous; nothing runs on the caller's
 * thread but the write), connected lazily and without waiting for a connection of its own (a connect under way is
 * shared). Commands fail at once while disconnected and after the command timeout otherwise, never hanging. Use it
 * as {@code RedisLockClient.over(LettuceTransport.standalone(uri, RedisTimeouts.of(timeout)), settings, listener)}:
 * each factory gives a {@link RedisTransport}, what the lock calls and nothing else.
 */
public final class LettuceTransport {

    private static final Logger log = LoggerFactory.getLogger(LettuceTransport.class);

    private LettuceTransport() {
    }

    /**
     * Redis wherever {@code endpoints} say: one server, a Sentinel-managed master, or a Cluster, with their login and
     * TLS, as the Spring Boot starter connects.
     *
     * @param endpoints      where Redis is
     * @param timeouts       how long to connect, how long a command waits
     * @param clusterRefresh on a Cluster, how often to read its layout again
     * @return a transport that connects on first use
     * @throws IllegalArgumentException if {@code clusterRefresh} is not positive
     */
    public static RedisTransport of(RedisEndpoints endpoints, RedisTimeouts timeouts, Duration clusterRefresh) {
        return LettuceEndpoints.transport(endpoints, timeouts, clusterRefresh);
    }

    /**
     * One Redis server, or a Sentinel-managed one through a {@code redis-sentinel://} URI. TLS follows the URI
     * ({@code rediss://}) with the JVM's default trust.
     *
     * @param uri            the server (redis://, rediss://, redis-sentinel://)
     * @param timeouts       how long to connect, how long a command waits
     * @return a transport that connects on first use
     */
    public static RedisTransport standalone(RedisURI uri, RedisTimeouts timeouts) {
        return standalone(uri, timeouts, null);
    }

    /**
     * As above, with the TLS trust and key material to use when the URI asks for TLS.
     *
     * @param uri            the server (redis://, rediss://, redis-sentinel://)
     * @param timeouts       how long to connect, how long a command waits
     * @param ssl            TLS material; null for the JVM's defaults
     * @return a transport that connects on first use
     */
    public static RedisTransport standalone(RedisURI uri, RedisTimeouts timeouts, @Nullable SslOptions ssl) {
        uri.setTimeout(timeouts.connect()); // Lettuce bounds a connection's handshake (HELLO, AUTH) by it
        RedisClient client = RedisClient.create(resources(), uri);
        client.setOptions(failFast(ClientOptions.builder(), timeouts, ssl).build());
        return new Transport(RedisConnector.standalone(client, uri, () -> {
            uri.setTimeout(timeouts.command());
            client.setOptions(client.getOptions().mutate().socketOptions(connectWithin(timeouts.command())).build());
        }), timeouts, false);
    }

    /**
     * A Redis Cluster; a lock's keys share a hash slot, so the scripts are legal.
     *
     * @param seeds          some of the cluster's nodes
     * @param timeouts       how long to connect, how long a command waits
     * @return a transport that connects on first use
     */
    public static RedisTransport cluster(List<RedisURI> seeds, RedisTimeouts timeouts) {
        return cluster(seeds, timeouts, null);
    }

    /**
     * As above, with TLS material for seeds that ask for TLS.
     *
     * @param seeds          some of the cluster's nodes
     * @param timeouts       how long to connect, how long a command waits
     * @param ssl            TLS material; null for the JVM's defaults
     * @return a transport that connects on first use
     */
    public static RedisTransport cluster(List<RedisURI> seeds, RedisTimeouts timeouts, @Nullable SslOptions ssl) {
        return cluster(seeds, timeouts, ssl, RedisTransport.DEFAULT_CLUSTER_REFRESH);
    }

    /**
     * As above, reading the cluster's layout again every {@code clusterRefresh} instead of every
     * {@link RedisTransport#DEFAULT_CLUSTER_REFRESH}.
     *
     * @param seeds          some of the cluster's nodes
     * @param timeouts       how long to connect, how long a command waits
     * @param ssl            TLS material; null for the JVM's defaults
     * @param clusterRefresh how often to read the cluster's layout again
     * @return a transport that connects on first use
     * @throws IllegalArgumentException if {@code clusterRefresh} is not positive
     */
    public static RedisTransport cluster(List<RedisURI> seeds, RedisTimeouts timeouts, @Nullable SslOptions ssl,
                                         Duration clusterRefresh) {
        RedisTransport.requirePositiveRefresh(clusterRefresh);
        seeds.forEach(uri -> uri.setTimeout(timeouts.connect())); // each node connection's handshake
        RedisClusterClient client = RedisClusterClient.create(resources(), seeds);
        client.setOptions(failFast(ClusterClientOptions.builder(), timeouts, ssl)
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enablePeriodicRefresh(clusterRefresh)
                        .enableAllAdaptiveRefreshTriggers() // MOVED, ASK, reconnects to a node that is gone
                        .adaptiveRefreshTriggersTimeout(timeouts.command())
                        .build())
                .build());
        return new Transport(RedisConnector.cluster(client, () -> {
            seeds.forEach(uri -> uri.setTimeout(timeouts.command()));
            client.setOptions(((ClusterClientOptions) client.getOptions()).mutate()
                    .socketOptions(connectWithin(timeouts.command())).build());
        }), timeouts, true);
    }

    /**
     * The client's own threads, without Lettuce's command latency recording, which it turns on whenever LatencyUtils
     * is on the class path (as with Micrometer): nothing reads the lock client's, and it cost every command a
     * histogram update and about 0.2 KB. Shut down with the client ({@link RedisConnector#close()}).
     */
    private static ClientResources resources() {
        return ClientResources.builder().commandLatencyRecorder(CommandLatencyRecorder.disabled()).build();
    }

    private static SocketOptions connectWithin(Duration timeout) {
        return SocketOptions.builder().connectTimeout(timeout).build();
    }

    /**
     * Commands fail at once while disconnected and after the command timeout otherwise: a typed error, never a hang.
     * The first connection is made within the connect timeout; once it has been, each later one (after a silent
     * connection was dropped, or a failover) within the command timeout, which is as long as a caller waits then.
     */
    private static <B extends ClientOptions.Builder> B failFast(B builder, RedisTimeouts timeouts, @Nullable SslOptions ssl) {
        builder.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(connectWithin(timeouts.connect()))
                .timeoutOptions(TimeoutOptions.enabled(timeouts.command()));
        if (ssl != null) {
            builder.sslOptions(ssl);
        }
        return builder;
    }

    /** The transport itself: what the lock calls, behind the factories above. */
    private static final class Transport implements RedisTransport {

        private final RedisConnector redis;
        private final RedisTimeouts timeouts;
        private final Duration commandTimeout;
        private final boolean cluster;
        private volatile @Nullable LettuceCommands lastCommands;

        Transport(RedisConnector redis, RedisTimeouts timeouts, boolean cluster) {
            this.redis = redis;
            this.timeouts = timeouts;
            this.commandTimeout = timeouts.command();
            this.cluster = cluster;
        }

        @Override
        public String client() {
            return "lettuce";
        }

        @Override
        public RedisTimeouts timeouts() {
            return timeouts;
        }

        @Override
        public boolean cluster() {
            return cluster;
        }

        @Override
        public <T> CompletableFuture<T> call(RedisCommand<T> command, long deadlineNanos, Runnable beforeSend) {
            RedisClusterAsyncCommands<String, String> connected = redis.connectedOrNull();
            if (connected != null) {
                beforeSend.run();
                return dispatch(connected, command);
            }
            return redis.commands().thenCompose(r -> {
                beforeSend.run();
                return dispatch(r, command);
            });
        }

        /** As {@link #call}: nothing of it blocks the caller anyway. */
        @Override
        public <T> CompletableFuture<T> send(RedisCommand<T> command, long deadlineNanos, Runnable beforeSend) {
            return call(command, deadlineNanos, beforeSend);
        }

        @Override
        public <T> @Nullable CompletableFuture<T> sendIfConnected(RedisCommand<T> command) {
            RedisClusterAsyncCommands<String, String> connected = redis.connectedOrNull();
            return connected == null ? null : dispatch(connected, command);
        }

        @Override
        public CompletableFuture<AutoCloseable> subscribe(String pattern, Consumer<String> onMessage) {
            Subscription subscription = new Subscription(pattern, onMessage);
            return subscription.connect().thenApply(connected -> subscription);
        }

        /**
         * One pattern subscription. Lettuce re-subscribes after a disconnect it notices; one it cannot notice (the
         * network dropped the idle connection without a word) is found by a PING every
         * {@link RedisTransport#subscriptionPingInterval(Duration)}: when it gets no answer within the command timeout,
         * the connection is closed and the subscription made again on a new one (tried again every interval until it
         * succeeds).
         */
        private final class Subscription implements AutoCloseable {
            private final String pattern;
            private final Consumer<String> onMessage;
            private volatile @Nullable StatefulRedisPubSubConnection<String, String> current;
            private volatile boolean closed;

            Subscription(String pattern, Consumer<String> onMessage) {
                this.pattern = pattern;
                this.onMessage = onMessage;
            }

            CompletableFuture<StatefulRedisPubSubConnection<String, String>> connect() {
                return redis.connectPubSub().thenCompose(connection -> {
                    connection.addListener(new RedisPubSubAdapter<>() {
                        @Override
                        public void message(String subscribed, String channel, String message) {
                            onMessage.accept(channel);
                        }
                    });
                    return connection.async().psubscribe(pattern).toCompletableFuture().handle((ok, error) -> {
                        if (error != null) {
                            connection.closeAsync();
                            throw error instanceof CompletionException c ? c : new CompletionException(error);
                        }
                        current = connection;
                        if (closed) { // close() may have read the previous connection: this one is closed here
                            connection.closeAsync();
                            throw new CompletionException(new IllegalStateException("closed"));
                        }
                        pingLater(connection);
                        return connection;
                    });
                });
            }

            private void pingLater(StatefulRedisPubSubConnection<String, String> connection) {
                later().execute(() -> {
                    if (closed || current != connection) {
                        return;
                    }
                    connection.async().ping().whenComplete((pong, error) -> {
                        if (error == null) {
                            pingLater(connection);
                        } else if (!closed && current == connection) {
                            log.info("the release subscription did not answer a PING within {} ({}); subscribing again on a "
                                    + "new connection", commandTimeout, error.toString());
                            current = null;
                            connection.closeAsync();
                            resubscribe();
                        }
                    });
                });
            }

            private void resubscribe() {
                if (closed) {
                    return;
                }
                connect().whenComplete((connection, error) -> {
                    if (error != null) {
                        log.debug("could not subscribe to lock releases again; trying again in {}",
                                RedisTransport.subscriptionPingInterval(commandTimeout), error);
                        later().execute(this::resubscribe);
                    }
                });
            }

            /** Runs a task one ping interval from now, on the JDK's delay thread (each task here only sends). */
            private Executor later() {
                return CompletableFuture.delayedExecutor(RedisTransport.subscriptionPingInterval(commandTimeout).toMillis(),
                        TimeUnit.MILLISECONDS, Runnable::run);
            }

            @Override
            public void close() {
                closed = true;
                StatefulRedisPubSubConnection<String, String> connection = current;
                if (connection != null) {
                    connection.closeAsync();
                }
            }
        }

        @Override
        public void answered() {
            redis.answered();
        }

        @Override
        public void failed(Throwable error) {
            if ((error instanceof RedisCommandTimeoutException || error instanceof TimeoutException)
                    && redis.timedOut(commandTimeout)) {
                log.warn("no answer from Redis for two command timeouts ({} each): closed the connection; the next call "
                        + "connects afresh (through Sentinel, to the current master)", commandTimeout);
            }
        }

        @Override
        public void close() {
            redis.close();
        }

        /** The commands of {@code r}, kept while the connection is: a reconnect makes new ones, rarely. */
        @SuppressWarnings("unchecked")
        private <T> CompletableFuture<T> dispatch(RedisClusterAsyncCommands<String, String> r, RedisCommand<T> command) {
            LettuceCommands commands = lastCommands;
            if (commands == null || !commands.on(r)) {
                commands = new LettuceCommands(r, cluster, redis.computation());
                lastCommands = commands;
            }
            try {
                return (CompletableFuture<T>) command.accept(commands);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
    }
}
