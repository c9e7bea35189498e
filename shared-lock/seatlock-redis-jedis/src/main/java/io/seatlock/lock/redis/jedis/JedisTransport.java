package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.RedisEndpoints;
import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.redis.spi.RedisCommand;
import io.seatlock.lock.redis.spi.RedisTransport;
import io.seatlock.lock.internal.DaemonThreads;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisAskDataException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisMovedDataException;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.providers.ConnectionProvider;
import redis.clients.jedis.providers.SentineledConnectionProvider;
import redis.clients.jedis.util.JedisURIHelper;

import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The Redis lock's blocking transport on Jedis: a pool of connections (standalone, Sentinel-managed or a Redis
 * Cluster, with TLS, the server's certificate and name checked, and ACL users as the {@link JedisClientConfig}
 * says), each command run on the caller's thread.
 * Use it as {@code RedisLockClient.over(JedisTransport.standalone(uri, timeout), settings, listener)}.
 *
 * <p>Bounds: a command gives up once its caller's deadline (the command timeout) has passed: the socket's read
 * timeout is set to the time left before each command. On one server, getting a connection is held to the same
 * deadline: the wait for a pooled connection when all {@value #POOL_SIZE} are lent, the TCP connect, and the TLS and
 * AUTH/SELECT handshake of a new connection ({@link StandalonePool}). On Sentinel and Cluster, Jedis' pools give each
 * of those steps the command timeout of its own, so a call that had to wait for a pooled connection, or open one whose
 * TLS or AUTH handshake stalled, takes at most twice it. A connection that timed out or failed mid-reply is
 * destroyed, never handed to another caller (no reply read by the wrong caller). Commands nobody blocks on (watchdog
 * renewals, releases on close) and a blocking {@code acquire}'s attempts (so that an interrupt is answered at once)
 * run on the transport's own threads, each within its deadline, as do the destruction of broken connections and, on a
 * cluster, each new reading of the slot map. Nothing connects before the first command: an application starts while
 * Redis is down, and calls fail (at once where the server refuses connections) until it is back.
 */
public final class JedisTransport implements RedisTransport {

    private static final Logger log = LoggerFactory.getLogger(JedisTransport.class);
    /**
     * Redirections a cluster command follows. A script sent to a slot mid-migration may need three: the ASK to the
     * importing node; there, new to the script, it loads it and sends it again, now without ASKING (which admits one
     * command), and is MOVED back; then the ASK again.
     */
    private static final int MAX_REDIRECTIONS = 3;
    /** Pooled connections per node; callers beyond it wait (bounded) for one. */
    static final int POOL_SIZE = 64;
    /** A subscribed connection's read timeout that means none: it waits for whatever is published. */
    private static final int WAIT_FOR_ANNOUNCEMENTS = 0;

    private final Supplier<ConnectionProvider> connect;
    /** The cluster's own calls and slot map readings; null where there is no cluster. */
    private final @Nullable ClusterCalls clusterCalls;
    /** Follows a master the Sentinels name; null without Sentinels. */
    private final @Nullable SentinelFollower sentinelFollower;
    private final RedisTimeouts timeouts;
    private final Duration commandTimeout;
    private final JedisLending lending;
    private final SharedConnect connecting;
    private volatile @Nullable ConnectionProvider provider;
    private final ThreadPoolExecutor background;
    private final Set<JedisSubscription> subscriptions = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private JedisTransport(Supplier<ConnectionProvider> connect, @Nullable Duration clusterRefresh,
                           SentinelFollower.@Nullable Sentinels sentinels, RedisTimeouts timeouts) {
        this.connect = connect;
        this.timeouts = timeouts;
        this.commandTimeout = timeouts.command();
        this.lending = new JedisLending(commandTimeout);
        this.connecting = new SharedConnect(connect, this::made, timeouts.connect());
        // Starts no thread before the first background command; idle threads leave after a minute.
        this.background = new ThreadPoolExecutor(POOL_SIZE, POOL_SIZE, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                DaemonThreads.named("seatlock-jedis"));
        this.background.allowCoreThreadTimeOut(true);
        this.clusterCalls = clusterRefresh == null ? null
                : new ClusterCalls(this, lending, clusterRefresh, commandTimeout, background);
        this.sentinelFollower = sentinels == null ? null
                : new SentinelFollower(this, sentinels, connect, commandTimeout, background);
    }

    /**
     * Redis wherever {@code endpoints} say: one server, a Sentinel-managed master, or a Cluster, with their login and
     * TLS, as the Spring Boot starter connects.
     *
     * @param endpoints      where Redis is
     * @param timeouts       how long to connect, how long a command waits
     * @param clusterRefresh on a Cluster, how often to read its slot map again
     * @return a transport that connects on first use
     * @throws IllegalArgumentException for a Sentinel URL without a master's name, or a refresh that is not positive
     */
    public static JedisTransport of(RedisEndpoints endpoints, RedisTimeouts timeouts, Duration clusterRefresh) {
        return JedisEndpoints.transport(endpoints, timeouts, clusterRefresh);
    }

    /**
     * One Redis server, from a URI: {@code redis://[user:password@]host:port[/database]}, or {@code rediss://} for
     * TLS with the JVM's default trust.
     *
     * @param uri            the server
     * @param timeouts       how long to connect, how long a command waits
     * @return a transport that connects on first use
     * @throws IllegalArgumentException if the URI is not a Redis one
     */
    public static JedisTransport standalone(URI uri, RedisTimeouts timeouts) {
        if (!JedisURIHelper.isValid(uri)) {
            // what is wrong, not the URI itself, which may hold a password
            throw new IllegalArgumentException("not a redis:// or rediss:// URI with host and port (scheme "
                    + uri.getScheme() + ", host " + uri.getHost() + ", port " + uri.getPort() + ")");
        }
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .user(JedisURIHelper.getUser(uri)).password(JedisURIHelper.getPassword(uri))
                .database(JedisURIHelper.getDBIndex(uri)).ssl(JedisURIHelper.isRedisSSLScheme(uri));
        return standalone(JedisURIHelper.getHostAndPort(uri), config.build(), timeouts);
    }

    /**
     * One Redis server.
     *
     * @param node           where it listens
     * @param config         user, password, database, TLS (its timeouts are replaced by {@code timeouts})
     * @param timeouts       how long to connect, how long a command waits
     * @return a transport that connects on first use
     */
    public static JedisTransport standalone(HostAndPort node, JedisClientConfig config, RedisTimeouts timeouts) {
        JedisClientConfig bounded = JedisConfigs.bounded(config, timeouts.command());
        return new JedisTransport(() -> new StandalonePool(node, bounded, timeouts.command(), POOL_SIZE), null, null,
                timeouts);
    }

    /**
     * A Sentinel-managed master: connections go to the master the Sentinels name, and follow a failover the
     * Sentinels announce; when a call cannot reach the master, or finds a replica there, the Sentinels are asked again
     * (at most once per command timeout), and connections go afresh to the master most of them name, if another.
     *
     * @param masterName     the master's name in the Sentinels' configuration
     * @param sentinels      some of the Sentinels
     * @param master         how to connect to the master (user, password, database, TLS)
     * @param sentinel       how to connect to the Sentinels
     * @param timeouts       how long to connect, how long a command waits
     * @return a transport that connects on first use
     */
    public static JedisTransport sentinel(String masterName, Set<HostAndPort> sentinels, JedisClientConfig master,
                                          JedisClientConfig sentinel, RedisTimeouts timeouts) {
        Duration commandTimeout = timeouts.command();
        JedisClientConfig boundedMaster = JedisConfigs.bounded(master, commandTimeout);
        // Jedis' listeners wait on each Sentinel's +switch-master subscription, which they never ping: a read timeout
        // there would drop and (after five seconds) make again each subscription whenever Sentinel had nothing to
        // announce, logging an error each time and deaf meanwhile. So no read timeout while subscribed (Jedis' own
        // default); a Sentinel that exits closes the connection, and its questions are still bounded.
        JedisClientConfig boundedSentinel = JedisConfigs.bounded(sentinel, commandTimeout, WAIT_FOR_ANNOUNCEMENTS);
        Set<HostAndPort> nodes = Set.copyOf(sentinels);
        return new JedisTransport(() -> new SentineledConnectionProvider(masterName, boundedMaster,
                JedisConfigs.pool(commandTimeout),
                nodes, boundedSentinel), null, new SentinelFollower.Sentinels(masterName, nodes, boundedSentinel), timeouts);
    }

    /**
     * A Redis Cluster; a lock's keys share a hash slot, so each script goes to one node.
     *
     * @param seeds          some of the cluster's nodes
     * @param config         user, password, TLS
     * @param timeouts       how long to connect, how long a command waits
     * @return a transport that connects on first use
     */
    public static JedisTransport cluster(Set<HostAndPort> seeds, JedisClientConfig config, RedisTimeouts timeouts) {
        return cluster(seeds, config, timeouts, DEFAULT_CLUSTER_REFRESH);
    }

    /**
     * As above, reading the cluster's slot map again every {@code clusterRefresh} instead of every
     * {@link RedisTransport#DEFAULT_CLUSTER_REFRESH}.
     *
     * @param seeds          some of the cluster's nodes
     * @param config         user, password, TLS
     * @param timeouts       how long to connect, how long a command waits
     * @param clusterRefresh how often to read the slot map again
     * @return a transport that connects on first use
     * @throws IllegalArgumentException if {@code clusterRefresh} is not positive
     */
    public static JedisTransport cluster(Set<HostAndPort> seeds, JedisClientConfig config, RedisTimeouts timeouts,
                                         Duration clusterRefresh) {
        RedisTransport.requirePositiveRefresh(clusterRefresh);
        JedisClientConfig bounded = JedisConfigs.bounded(config, timeouts.command());
        Set<HostAndPort> nodes = Set.copyOf(seeds);
        // The slot map is read again every clusterRefresh (by the transport, see refreshSlotMap), besides on MOVED: a
        // dead master answers nothing, so only reading it again finds the replica the cluster promoted.
        return new JedisTransport(() -> new ClusterConnectionProvider(nodes, bounded, JedisConfigs.pool(timeouts.command())),
                clusterRefresh, null, timeouts);
    }

    @Override
    public String client() {
        return "jedis";
    }

    @Override
    public RedisTimeouts timeouts() {
        return timeouts;
    }

    @Override
    public boolean cluster() {
        return clusterCalls != null;
    }

    @Override
    public <T> CompletableFuture<T> call(RedisCommand<T> command, long deadlineNanos, Runnable beforeSend) {
        try {
            return CompletableFuture.completedFuture(execute(command, deadlineNanos, beforeSend));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Error e) {
            // Opening a pooled connection can fail so too (a class missing from the class path): the caller hears it
            // as every other failure to reach Redis, as from send(), whose thread hands every failure back in its future.
            return CompletableFuture.failedFuture(e);
        }
    }

    /** On the transport's own threads, each command within its deadline however long it queued. */
    @Override
    public <T> CompletableFuture<T> send(RedisCommand<T> command, long deadlineNanos, Runnable beforeSend) {
        try {
            return CompletableFuture.supplyAsync(() -> execute(command, deadlineNanos, beforeSend), background);
        } catch (RuntimeException e) { // closed
            return CompletableFuture.failedFuture(e);
        }
    }

    /** As {@link #send}: a pooled transport has no one connection whose absence would make this pointless. */
    @Override
    public <T> @Nullable CompletableFuture<T> sendIfConnected(RedisCommand<T> command) {
        return provider == null ? null : send(command, System.nanoTime() + commandTimeout.toNanos(), () -> { });
    }

    @Override
    public CompletableFuture<AutoCloseable> subscribe(String pattern, Consumer<String> onMessage) {
        JedisSubscription subscription = new JedisSubscription(this, pattern, onMessage);
        subscriptions.add(subscription);
        return subscription.start();
    }

    @Override
    public void close() {
        closed = true;
        background.shutdownNow();
        lending.close();
        if (clusterCalls != null) {
            clusterCalls.close();
        }
        subscriptions.forEach(JedisSubscription::close);
        ConnectionProvider current = provider;
        if (current != null) {
            closeQuietly(current);
        }
    }

    /** Sends {@code command} on the caller's thread, within {@code deadline}; on a cluster, follows redirections. */
    <T> T execute(RedisCommand<T> command, long deadline, Runnable beforeSend) {
        try {
            return executeOn(provider(deadline), command, deadline, beforeSend);
        } catch (JedisConnectionException e) {
            masterUnreachable();
            throw e;
        } catch (JedisDataException e) {
            if (String.valueOf(e.getMessage()).startsWith("READONLY")) { // a master turned into a replica
                masterUnreachable();
            }
            throw e;
        }
    }

    @SuppressWarnings("unchecked")
    private <T> T executeOn(ConnectionProvider connections, RedisCommand<T> command, long deadline, Runnable beforeSend) {
        if (clusterCalls != null && connections instanceof ClusterConnectionProvider clusterNodes) {
            if (command instanceof RedisCommand.Scan scan) {
                return (T) clusterCalls.scanEveryMaster(clusterNodes, scan.pattern(), deadline);
            }
            if (command instanceof RedisCommand.Exists exists && exists.keys().size() > 1) {
                return (T) clusterCalls.existsOnEachNode(clusterNodes, exists.keys(), deadline);
            }
            if (command instanceof RedisCommand.Ping) {
                return (T) clusterCalls.pingEveryMaster(clusterNodes, deadline);
            }
        }
        HostAndPort redirectedTo = null;
        boolean asking = false;
        for (int attempt = 0; ; attempt++) {
            Connection connection = redirectedTo == null ? JedisLending.borrow(connections, command, deadline)
                    : ((ClusterConnectionProvider) connections).getConnection(redirectedTo);
            try {
                lending.readUntil(connection, deadline);
                if (asking) {
                    connection.sendCommand(Protocol.Command.ASKING);
                    connection.getStatusCodeReply();
                }
                beforeSend.run();
                return JedisCommands.run(connection, command);
            } catch (JedisMovedDataException | JedisAskDataException e) {
                if (attempt >= MAX_REDIRECTIONS || !(connections instanceof ClusterConnectionProvider clusterNodes)) {
                    throw e;
                }
                redirectedTo = e.getTargetNode();
                // ASK: the slot is migrating and the key has left, ask the importing node. MOVED: the slot moved
                // (resharding, failover), so go to its new node, and read the slot map again behind this call
                asking = e instanceof JedisAskDataException;
                if (!asking && clusterCalls != null) {
                    clusterCalls.renewSlotMap(clusterNodes, redirectedTo);
                }
            } catch (RuntimeException | Error e) {
                JedisCommands.breakUnlessAnswered(connection, e);
                throw e;
            } finally {
                lending.giveBack(connection);
            }
        }
    }

    private static void closeQuietly(ConnectionProvider connections) {
        try {
            connections.close();
        } catch (Exception e) {
            log.debug("could not close the Jedis connections", e);
        }
    }

    /** A call could not reach the master, or reached a replica: on Sentinel, the Sentinels are asked again. */
    private void masterUnreachable() {
        if (sentinelFollower != null) {
            sentinelFollower.masterUnreachable();
        }
    }

    /** The connection provider, made once ({@link SharedConnect}); callers each wait until their own deadline. */
    ConnectionProvider provider(long deadline) {
        ConnectionProvider ready = provider;
        if (ready != null) {
            return ready;
        }
        if (closed) {
            throw new IllegalStateException("the Jedis transport is closed");
        }
        return connecting.await(deadline);
    }

    private void made(ConnectionProvider made) {
        provider = made;
        if (clusterCalls != null && made instanceof ClusterConnectionProvider clusterNodes) {
            clusterCalls.startRefreshing(clusterNodes);
        }
    }

    boolean isClosed() {
        return closed;
    }

    Executor background() {
        return background;
    }

    @Nullable ConnectionProvider currentProvider() {
        return provider;
    }

    /** Connections go afresh through {@code fresh} (the Sentinels name another master than {@code old}'s). */
    void replaceProvider(ConnectionProvider old, ConnectionProvider fresh) {
        provider = fresh;
        if (closed) { // close() may have closed the old one before this swap
            closeQuietly(fresh);
        }
        closeQuietly(old);
    }

    void ended(JedisSubscription subscription) {
        subscriptions.remove(subscription);
    }

}
