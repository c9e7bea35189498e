package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.RedisEndpoints;
import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.redis.spi.RedisCommand;
import io.seatlock.lock.redis.spi.RedisTransport;
import io.seatlock.lock.spi.DaemonThreads;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisAskDataException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisMovedDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.providers.ConnectionProvider;
import redis.clients.jedis.providers.SentineledConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;
import redis.clients.jedis.util.JedisURIHelper;
import redis.clients.jedis.util.SafeEncoder;

import javax.net.ssl.SSLParameters;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
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
    private static final long RESUBSCRIBE_PAUSE_MILLIS = 1_000;
    /** A subscribed connection's read timeout that means none: it waits for whatever is published. */
    private static final int WAIT_FOR_ANNOUNCEMENTS = 0;
    private static final ThreadFactory CONNECTING = DaemonThreads.named("seatlock-jedis-connect");
    private static final ThreadFactory SUBSCRIBING = DaemonThreads.named("seatlock-jedis-releases");

    private final Supplier<ConnectionProvider> connect;
    /** How often a cluster's slot map is read again; null where there is no cluster. */
    private final @Nullable Duration clusterRefresh;
    private final @Nullable Sentinels sentinels;
    private final RedisTimeouts timeouts;
    private final Duration commandTimeout;
    /** Why a command had no time left before it was sent: made once, not on the hot path. */
    private final String noTimeLeft;
    /** When the Sentinels may next be asked whether they name another master (at most once per command timeout). */
    private final AtomicLong nextSentinelCheck = new AtomicLong(System.nanoTime());
    private final AtomicReference<@Nullable CompletableFuture<ConnectionProvider>> attempt = new AtomicReference<>();
    private volatile @Nullable ConnectionProvider provider;
    private final ThreadPoolExecutor background;
    /** Where broken connections are destroyed, see {@link #giveBack}. */
    private final ThreadPoolExecutor destroying;
    /** Reads a cluster's slot map again every {@link #clusterRefresh}, from the first connect on; null without one. */
    private final @Nullable ScheduledThreadPoolExecutor refreshing;
    /** Whether a reading of the slot map runs: one at a time. */
    private final AtomicBoolean readingSlotMap = new AtomicBoolean();
    private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private JedisTransport(Supplier<ConnectionProvider> connect, @Nullable Duration clusterRefresh,
                           @Nullable Sentinels sentinels, RedisTimeouts timeouts) {
        this.connect = connect;
        this.clusterRefresh = clusterRefresh;
        this.sentinels = sentinels;
        this.timeouts = timeouts;
        this.commandTimeout = timeouts.command();
        this.noTimeLeft = "no answer within " + commandTimeout + " (the time went on getting a connection)";
        // Starts no thread before the first background command; idle threads leave after a minute.
        this.background = new ThreadPoolExecutor(POOL_SIZE, POOL_SIZE, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                DaemonThreads.named("seatlock-jedis"));
        this.background.allowCoreThreadTimeOut(true);
        this.destroying = new ThreadPoolExecutor(POOL_SIZE, POOL_SIZE, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                DaemonThreads.named("seatlock-jedis-destroy"));
        this.destroying.allowCoreThreadTimeOut(true);
        // Starts its thread only when the first connect schedules the reading.
        this.refreshing = clusterRefresh == null ? null
                : new ScheduledThreadPoolExecutor(1, DaemonThreads.named("seatlock-jedis-cluster-refresh"));
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
        JedisClientConfig bounded = bounded(config, timeouts.command());
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
        JedisClientConfig boundedMaster = bounded(master, commandTimeout);
        // Jedis' listeners wait on each Sentinel's +switch-master subscription, which they never ping: a read timeout
        // there would drop and (after five seconds) make again each subscription whenever Sentinel had nothing to
        // announce, logging an error each time and deaf meanwhile. So no read timeout while subscribed (Jedis' own
        // default); a Sentinel that exits closes the connection, and its questions are still bounded.
        JedisClientConfig boundedSentinel = bounded(sentinel, commandTimeout, WAIT_FOR_ANNOUNCEMENTS);
        Set<HostAndPort> nodes = Set.copyOf(sentinels);
        return new JedisTransport(() -> new SentineledConnectionProvider(masterName, boundedMaster, pool(commandTimeout),
                nodes, boundedSentinel), null, new Sentinels(masterName, nodes, boundedSentinel), timeouts);
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
        JedisClientConfig bounded = bounded(config, timeouts.command());
        Set<HostAndPort> nodes = Set.copyOf(seeds);
        // The slot map is read again every clusterRefresh (by the transport, see refreshSlotMap), besides on MOVED: a
        // dead master answers nothing, so only reading it again finds the replica the cluster promoted.
        return new JedisTransport(() -> new ClusterConnectionProvider(nodes, bounded, pool(timeouts.command())),
                clusterRefresh, null, timeouts);
    }

    /**
     * {@code config} with every timeout the command timeout, except a subscribed connection's read ("blocking")
     * timeout: our release subscription, pinged every subscriptionPingInterval, silent for that and one command
     * timeout more is one the network dropped. A call made before the lock first reached Redis has the connect timeout
     * on top (its deadline says so): the standalone pool connects within the time left before it; Jedis' own pools
     * (Sentinel, Cluster) connect within this command timeout, on the caller's thread, whatever its deadline.
     */
    private static JedisClientConfig bounded(JedisClientConfig config, Duration commandTimeout) {
        return bounded(config, commandTimeout, (int) Math.min(Integer.MAX_VALUE,
                RedisTransport.subscriptionPingInterval(commandTimeout).plus(commandTimeout).toMillis()));
    }

    private static JedisClientConfig bounded(JedisClientConfig config, Duration commandTimeout, int subscribedMillis) {
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, commandTimeout.toMillis()));
        // No CLIENT SETINFO on connect: without a password or database, a new connection then reads nothing before the
        // caller's command, whose read is bounded by the caller's own deadline.
        DefaultJedisClientConfig.Builder bounded = DefaultJedisClientConfig.builder().from(config)
                .connectionTimeoutMillis(millis).socketTimeoutMillis(millis).blockingSocketTimeoutMillis(subscribedMillis)
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
        if (config.isSsl() && config.getSslParameters() == null && config.getHostnameVerifier() == null) {
            // TLS checks the server's name too (as Lettuce does by default), not only its certificate chain
            SSLParameters checkName = new SSLParameters();
            checkName.setEndpointIdentificationAlgorithm("HTTPS");
            bounded.sslParameters(checkName);
        }
        return bounded.build();
    }

    private static GenericObjectPoolConfig<Connection> pool(Duration commandTimeout) {
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(POOL_SIZE);
        pool.setMaxIdle(POOL_SIZE);
        pool.setMinIdle(0);
        pool.setMaxWait(commandTimeout);
        pool.setBlockWhenExhausted(true);
        pool.setJmxEnabled(false);
        return pool;
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
        return clusterRefresh != null;
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
        Subscriber subscriber = new Subscriber(pattern, onMessage);
        subscribers.add(subscriber);
        subscriber.thread.start();
        return subscriber.subscribed;
    }

    @Override
    public void close() {
        closed = true;
        background.shutdownNow();
        destroying.shutdown(); // the broken connections handed over still get closed
        if (refreshing != null) {
            refreshing.shutdownNow();
        }
        subscribers.forEach(Subscriber::close);
        ConnectionProvider current = provider;
        if (current != null) {
            closeQuietly(current);
        }
    }

    private <T> T execute(RedisCommand<T> command, long deadline, Runnable beforeSend) {
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
        if (connections instanceof ClusterConnectionProvider clusterNodes) {
            if (command instanceof RedisCommand.Scan scan) {
                return (T) scanEveryMaster(clusterNodes, scan.pattern(), deadline);
            }
            if (command instanceof RedisCommand.Exists exists && exists.keys().size() > 1) {
                return (T) existsOnEachNode(clusterNodes, exists.keys(), deadline);
            }
            if (command instanceof RedisCommand.Ping) {
                return (T) pingEveryMaster(clusterNodes, deadline);
            }
        }
        HostAndPort redirectedTo = null;
        boolean asking = false;
        for (int attempt = 0; ; attempt++) {
            Connection connection = redirectedTo == null ? connectionFor(connections, command, deadline)
                    : ((ClusterConnectionProvider) connections).getConnection(redirectedTo);
            try {
                readUntil(connection, deadline);
                if (asking) {
                    connection.sendCommand(Protocol.Command.ASKING);
                    connection.getStatusCodeReply();
                }
                beforeSend.run();
                return run(connection, command);
            } catch (JedisMovedDataException | JedisAskDataException e) {
                if (attempt >= MAX_REDIRECTIONS || !(connections instanceof ClusterConnectionProvider clusterNodes)) {
                    throw e;
                }
                redirectedTo = e.getTargetNode();
                // ASK: the slot is migrating and the key has left, ask the importing node. MOVED: the slot moved
                // (resharding, failover), so go to its new node, and read the slot map again behind this call
                asking = e instanceof JedisAskDataException;
                if (!asking) {
                    renewSlotMap(clusterNodes, redirectedTo);
                }
            } catch (RuntimeException | Error e) {
                breakUnlessAnswered(connection, e);
                throw e;
            } finally {
                giveBack(connection);
            }
        }
    }

    /**
     * Reads the slot map again behind a call that got a MOVED, on a thread of the transport's, from {@code answering}
     * (the node that sent it) first. Jedis' own way, on the caller's thread and from the seeds first, made the call
     * wait on every seed that answers nothing, a command timeout each, past its deadline.
     */
    private void renewSlotMap(ClusterConnectionProvider clusterNodes, HostAndPort answering) {
        if (readingSlotMap.get()) {
            return; // every call on a moved slot gets a MOVED until a reading ends: one reading for them all
        }
        try {
            background.execute(() -> refreshSlotMap(clusterNodes, answering));
        } catch (RejectedExecutionException e) { // closed
            log.debug("not reading the slot map again: the transport is closed", e);
        }
    }

    private void startRefreshing(ClusterConnectionProvider clusterNodes) {
        if (refreshing == null || clusterRefresh == null) {
            return;
        }
        long period = clusterRefresh.toNanos();
        try {
            refreshing.scheduleWithFixedDelay(() -> refreshSlotMap(clusterNodes, null), period, period,
                    TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) { // closed
            log.debug("not reading the slot map again: the transport is closed", e);
        }
    }

    /**
     * Reads the slot map again from a node that answers a {@code PING} on a pooled connection: {@code first} if given,
     * else the masters in random order; from the seeds and every node Jedis knows only if none does. Jedis' own
     * periodic refresh, which this replaces, opened a connection to the seeds first each time, so seeds that answer
     * nothing (an address in front of the cluster that went away) held each reading up by a command timeout apiece,
     * and each reading cost a new connection (a TLS handshake with TLS). One reading at a time: one asked for while
     * another runs is skipped. Whatever it throws, the next reading comes: a scheduled task that throws is never
     * run again, which ended Jedis' refresh for good on any failure other than a Jedis exception.
     */
    private void refreshSlotMap(ClusterConnectionProvider clusterNodes, @Nullable HostAndPort first) {
        if (!readingSlotMap.compareAndSet(false, true)) {
            return;
        }
        try {
            if (first != null && readSlotMapFrom(clusterNodes, first)) {
                return;
            }
            List<HostAndPort> masters = new ArrayList<>(mastersServingSlots(clusterNodes));
            Collections.shuffle(masters);
            for (HostAndPort master : masters) {
                if (closed || readSlotMapFrom(clusterNodes, master)) {
                    return;
                }
            }
            clusterNodes.renewSlotCache();
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError fatal) {
                throw fatal;
            }
            log.warn("could not read the cluster's slot map again; trying again in {}", clusterRefresh, e);
        } finally {
            readingSlotMap.set(false);
        }
    }

    /** Whether {@code node} answered a {@code PING} on a pooled connection, on which the slot map was then read. */
    private boolean readSlotMapFrom(ClusterConnectionProvider clusterNodes, HostAndPort node) {
        Connection connection;
        try {
            connection = clusterNodes.getConnection(node);
        } catch (JedisException e) {
            return false;
        }
        try {
            connection.setSoTimeout(Math.toIntExact(commandTimeout.toMillis())); // not what its last call had left
            connection.sendCommand(Protocol.Command.PING);
            connection.getStatusCodeReply();
            clusterNodes.renewSlotCache(connection);
            return true;
        } catch (JedisException e) {
            breakUnlessAnswered(connection, e);
            return false;
        } finally {
            giveBack(connection);
        }
    }

    /**
     * A call could not reach the master, or reached a replica: on Sentinel, ask the Sentinels whether they name another
     * master now (on the transport's own thread, at most once per command timeout). Jedis moves its pool only when a
     * Sentinel announces {@code +switch-master}, so without this a master moved without an announcement (by hand, or
     * named by a Sentinel that was behind when Jedis asked it) would be asked for ever.
     */
    private void masterUnreachable() {
        if (sentinels == null || closed) {
            return;
        }
        long now = System.nanoTime();
        long next = nextSentinelCheck.get();
        if (now - next < 0 || !nextSentinelCheck.compareAndSet(next, now + commandTimeout.toNanos())) {
            return;
        }
        try {
            background.execute(() -> followSentinels(sentinels));
        } catch (RejectedExecutionException e) { // closed meanwhile
            log.debug("not asking the Sentinels: the transport is closed", e);
        }
    }

    /** Connects afresh if most of the Sentinels that answer name another master than the pool's. */
    private void followSentinels(Sentinels sentinels) {
        if (!(provider instanceof SentineledConnectionProvider current)) {
            return;
        }
        HostAndPort named = sentinels.named();
        if (named == null || named.equals(current.getCurrentMaster()) || closed) {
            return;
        }
        log.info("the Sentinels name {} as master of {}, the pool is still on {}: connecting afresh", named,
                sentinels.masterName(), current.getCurrentMaster());
        ConnectionProvider fresh;
        try {
            fresh = connect.get();
        } catch (RuntimeException e) {
            log.debug("could not connect afresh through the Sentinels; the next failed call asks again", e);
            return;
        }
        provider = fresh;
        if (closed) { // close() may have closed the old one before this swap
            closeQuietly(fresh);
        }
        closeQuietly(current);
    }

    private static void closeQuietly(ConnectionProvider connections) {
        try {
            connections.close();
        } catch (Exception e) {
            log.debug("could not close the Jedis connections", e);
        }
    }

    /**
     * Back to the pool, or destroyed if it broke (a timeout, a cut mid-reply). A broken one is destroyed on a thread of
     * the transport's: on Sentinel and Cluster, commons-pool opens the replacement for a borrower waiting for a
     * connection on the thread that destroys one, and a caller past its deadline would then wait on somebody else's
     * connect and handshake (on a frozen Redis that asks a password, a second command timeout:
     * {@code JedisCallBoundTest}); and closing a TLS connection writes to a peer that may not be reading.
     */
    private void giveBack(Connection connection) {
        if (connection.isBroken()) {
            try {
                destroying.execute(() -> destroy(connection));
                return;
            } catch (RejectedExecutionException e) { // closed: nobody waits for a connection any more
                destroy(connection);
                return;
            }
        }
        connection.close();
    }

    private static void destroy(Connection broken) {
        try {
            broken.close();
        } catch (RuntimeException e) { // its replacement for a waiting borrower could not be opened: that one waits on, bounded
            log.debug("destroyed a broken Jedis connection; opening its replacement failed", e);
        }
    }

    /**
     * Marks {@code connection} broken, so that its pool destroys it instead of lending it again, unless {@code failure}
     * is an error reply Redis sent in full. Anything else (an {@link Error} while parsing, a reply of a shape nobody
     * expected) may have come between writing a command and reading all of its reply, and the next borrower would
     * read the rest as its own answer. Jedis marks its own I/O failures and timeouts broken already.
     */
    private static void breakUnlessAnswered(Connection connection, Throwable failure) {
        if (!(failure instanceof JedisDataException)) {
            connection.setBroken();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T run(Connection connection, RedisCommand<T> command) {
        Object answer;
        if (command instanceof RedisCommand.Script script) {
            answer = script(connection, script);
        } else if (command instanceof RedisCommand.ReplicatedScript replicated) {
            answer = replicated(connection, replicated);
        } else if (command instanceof RedisCommand.Pttl pttl) {
            connection.sendCommand(Protocol.Command.PTTL, pttl.key());
            answer = connection.getIntegerReply();
        } else if (command instanceof RedisCommand.Get get) {
            connection.sendCommand(Protocol.Command.GET, get.key());
            answer = connection.getBulkReply();
        } else if (command instanceof RedisCommand.Scan scan) {
            List<String> keys = new ArrayList<>();
            scanNode(connection, scan.pattern(), keys);
            answer = keys;
        } else if (command instanceof RedisCommand.Exists exists) {
            answer = exists(connection, exists.keys());
        } else {
            connection.sendCommand(Protocol.Command.PING);
            answer = connection.getStatusCodeReply();
        }
        return (T) answer;
    }

    /** EVALSHA; on NOSCRIPT (after SCRIPT FLUSH or a restart), SCRIPT LOAD on the same node and once more. */
    private static long script(Connection connection, RedisCommand.Script script) {
        try {
            return evalsha(connection, script);
        } catch (JedisNoScriptException e) {
            load(connection, script);
            return evalsha(connection, script);
        }
    }

    private static long evalsha(Connection connection, RedisCommand.Script script) {
        connection.sendCommand(evalshaArguments(connection, script));
        return connection.getIntegerReply();
    }

    /** The script, then WAIT, written together on one connection; both replies are read before it is handed back. */
    private static RedisCommand.ScriptReply replicated(Connection connection, RedisCommand.ReplicatedScript replicated) {
        for (int attempt = 0; ; attempt++) {
            connection.sendCommand(evalshaArguments(connection, replicated.script()));
            connection.sendCommand(Protocol.Command.WAIT, Integer.toString(replicated.replicas()),
                    Long.toString(replicated.waitMillis()));
            List<Object> replies = connection.getMany(2);
            if (replies.get(0) instanceof JedisNoScriptException missing) {
                if (attempt > 0) {
                    throw missing;
                }
                load(connection, replicated.script());
                continue;
            }
            for (Object reply : replies) {
                if (reply instanceof RuntimeException error) {
                    throw error;
                }
            }
            return new RedisCommand.ScriptReply((Long) replies.get(0), (Long) replies.get(1));
        }
    }

    private static void load(Connection connection, RedisCommand.Script script) {
        connection.sendCommand(Protocol.Command.SCRIPT, "LOAD", script.source());
        connection.getBulkReply();
    }

    /** The script's {@code EVALSHA}, in the arguments a pooled connection keeps for it if it has them. */
    private static CommandArguments evalshaArguments(Connection connection, RedisCommand.Script script) {
        EvalshaArguments kept = StandalonePool.evalshaArgumentsOf(connection);
        return (kept != null ? kept : new EvalshaArguments()).fill(script);
    }

    /** SCAN on every master of a cluster, each through a connection of its own, within the one deadline. */
    private List<String> scanEveryMaster(ClusterConnectionProvider clusterNodes, String pattern, long deadline) {
        List<String> keys = new ArrayList<>();
        for (HostAndPort master : mastersServingSlots(clusterNodes)) {
            Connection node = clusterNodes.getConnection(master);
            try {
                readUntil(node, deadline);
                scanNode(node, pattern, keys);
            } catch (RuntimeException | Error e) {
                breakUnlessAnswered(node, e);
                throw e;
            } finally {
                giveBack(node);
            }
        }
        return keys;
    }

    /**
     * A {@code PING} to every master of the slot map, each written before any reply is read: answers once each has,
     * or fails naming a master that did not.
     */
    private String pingEveryMaster(ClusterConnectionProvider clusterNodes, long deadline) {
        Map<HostAndPort, Connection> asked = new LinkedHashMap<>();
        try {
            for (HostAndPort master : mastersServingSlots(clusterNodes)) {
                try {
                    Connection connection = clusterNodes.getConnection(master);
                    asked.put(master, connection);
                    readUntil(connection, deadline);
                    connection.sendCommand(Protocol.Command.PING);
                } catch (JedisException e) {
                    throw unanswered(master, e);
                }
            }
            for (Map.Entry<HostAndPort, Connection> master : asked.entrySet()) {
                try {
                    master.getValue().getStatusCodeReply();
                } catch (JedisException e) {
                    throw unanswered(master.getKey(), e);
                }
            }
            return "PONG";
        } catch (RuntimeException | Error e) {
            asked.values().forEach(connection -> breakUnlessAnswered(connection, e));
            throw e;
        } finally {
            asked.values().forEach(this::giveBack);
        }
    }

    /**
     * The masters the slot map names, each once. Not Jedis' list of primaries, which keeps a master that failed over
     * (its pool is never dropped), so a scan or a ping would go on asking the dead node.
     */
    private static Set<HostAndPort> mastersServingSlots(ClusterConnectionProvider clusterNodes) {
        Set<HostAndPort> masters = new LinkedHashSet<>();
        for (int slot = 0; slot < Protocol.CLUSTER_HASHSLOTS; slot++) {
            HostAndPort master = clusterNodes.getNode(slot);
            if (master != null) {
                masters.add(master);
            }
        }
        return masters;
    }

    /** {@code failure}, naming the master it was for. */
    private static JedisConnectionException unanswered(HostAndPort master, JedisException failure) {
        return new JedisConnectionException("master " + master + " did not answer: " + failure.getMessage(), failure);
    }

    private static void scanNode(Connection connection, String pattern, List<String> into) {
        String cursor = "0";
        do {
            connection.sendCommand(Protocol.Command.SCAN, cursor, "MATCH", pattern, "COUNT", "1000");
            List<Object> page = connection.getObjectMultiBulkReply();
            cursor = SafeEncoder.encode((byte[]) page.get(0));
            for (Object key : (List<?>) page.get(1)) {
                into.add(SafeEncoder.encode((byte[]) key));
            }
        } while (!cursor.equals("0"));
    }

    /** One MGET of keys on this connection's node: one command however many keys. */
    private static boolean[] exists(Connection connection, List<String> keys) {
        connection.sendCommand(Protocol.Command.MGET, keys.toArray(String[]::new));
        List<Object> values = connection.getObjectMultiBulkReply();
        boolean[] exists = new boolean[keys.size()];
        for (int i = 0; i < exists.length; i++) {
            exists[i] = values.get(i) != null;
        }
        return exists;
    }

    /**
     * On a cluster one EXISTS per key (keys in different slots cannot share an MGET), pipelined: written together on
     * one connection to each master that holds some of them, then all of that master's replies read. So a seat map of
     * a few thousand seats costs a round trip per master, not one per seat. A key whose slot moved since the slot map
     * was read (resharding, failover) is asked again on its own, which follows the redirection.
     */
    private boolean[] existsOnEachNode(ClusterConnectionProvider clusterNodes, List<String> keys, long deadline) {
        boolean[] exists = new boolean[keys.size()];
        Map<HostAndPort, List<Integer>> byNode = new LinkedHashMap<>();
        List<Integer> redirected = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            HostAndPort node = clusterNodes.getNode(JedisClusterCRC16.getSlot(keys.get(i)));
            (node == null ? redirected : byNode.computeIfAbsent(node, n -> new ArrayList<>())).add(i);
        }
        for (Map.Entry<HostAndPort, List<Integer>> node : byNode.entrySet()) {
            List<Integer> indexes = node.getValue();
            Connection connection = clusterNodes.getConnection(node.getKey());
            try {
                readUntil(connection, deadline);
                for (int i : indexes) {
                    connection.sendCommand(Protocol.Command.EXISTS, keys.get(i));
                }
                List<Object> replies = connection.getMany(indexes.size());
                for (int j = 0; j < indexes.size(); j++) {
                    Object reply = replies.get(j);
                    if (reply instanceof JedisMovedDataException || reply instanceof JedisAskDataException) {
                        redirected.add(indexes.get(j));
                    } else if (reply instanceof RuntimeException error) {
                        throw error;
                    } else {
                        exists[indexes.get(j)] = (Long) reply == 1;
                    }
                }
            } catch (RuntimeException | Error e) {
                breakUnlessAnswered(connection, e);
                throw e;
            } finally {
                giveBack(connection);
            }
        }
        for (int i : redirected) {
            exists[i] = execute(new RedisCommand.Exists(List.of(keys.get(i))), deadline, () -> { })[0];
        }
        return exists;
    }

    /** A pooled connection to the node that holds the command's keys (on a cluster, by their hash slot). */
    private static Connection connectionFor(ConnectionProvider connections, RedisCommand<?> command, long deadline) {
        if (connections instanceof StandalonePool standalone) {
            return standalone.borrow(deadline);
        }
        if (!(connections instanceof ClusterConnectionProvider clusterNodes)) {
            return connections.getConnection();
        }
        String key = null;
        if (command instanceof RedisCommand.Script script) {
            key = script.keys()[0];
        } else if (command instanceof RedisCommand.Pttl pttl) {
            key = pttl.key();
        } else if (command instanceof RedisCommand.Get get) {
            key = get.key();
        } else if (command instanceof RedisCommand.Exists exists) {
            key = exists.keys().get(0);
        }
        return key == null ? clusterNodes.getConnection() : clusterNodes.getConnectionFromSlot(JedisClusterCRC16.getSlot(key));
    }

    /**
     * The connection provider, made by one shared attempt on a thread of its own (a Sentinel or Cluster provider
     * asks its nodes as it is made): callers each wait only until their own deadline.
     */
    private ConnectionProvider provider(long deadline) {
        ConnectionProvider ready = provider;
        if (ready != null) {
            return ready;
        }
        if (closed) {
            throw new IllegalStateException("the Jedis transport is closed");
        }
        CompletableFuture<ConnectionProvider> current;
        while (true) {
            current = attempt.get();
            if (current != null && !current.isCompletedExceptionally()) {
                break;
            }
            CompletableFuture<ConnectionProvider> fresh = new CompletableFuture<>();
            if (attempt.compareAndSet(current, fresh)) {
                // Whatever making it throws, an Error too (a class missing from the class path), fails this attempt
                // at once, and the next call makes another.
                CompletableFuture.supplyAsync(connect, command -> CONNECTING.newThread(command).start())
                        .whenComplete((made, error) -> {
                            if (error != null) {
                                fresh.completeExceptionally(error); // get() below unwraps supplyAsync's CompletionException
                            } else {
                                provider = made;
                                if (made instanceof ClusterConnectionProvider clusterNodes) {
                                    startRefreshing(clusterNodes);
                                }
                                fresh.complete(made);
                            }
                        });
                current = fresh;
                break;
            }
        }
        try {
            return current.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JedisConnectionException("interrupted while connecting", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new JedisConnectionException(e.getCause());
        } catch (TimeoutException e) {
            throw new JedisConnectionException("could not connect before the call's deadline (connect timeout " + timeouts.connect() + ")");
        }
    }

    /**
     * Sets {@code connection}'s read timeout to what is left until {@code deadline}, unless it is that already (as on
     * a busy path, where each call has the whole command timeout: the socket boxes each new value).
     */
    private void readUntil(Connection connection, long deadline) {
        int millis = millisLeft(deadline);
        if (connection.getSoTimeout() != millis) {
            connection.setSoTimeout(millis);
        }
    }

    /** The socket timeout for what is left until {@code deadline}: never 0, which a socket reads as "forever". */
    private int millisLeft(long deadline) {
        return millisLeft(deadline, noTimeLeft);
    }

    /**
     * Whole milliseconds left until {@code deadlineNanos}, at least one (a socket reads 0 as "forever"); none left
     * fails with {@code failure}.
     */
    static int millisLeft(long deadlineNanos, String failure) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
        if (left < 1) {
            throw new JedisConnectionException(failure);
        }
        return (int) Math.min(Integer.MAX_VALUE, left);
    }

    /** How to ask a Sentinel-managed master's Sentinels which master they name now. */
    private record Sentinels(String masterName, Set<HostAndPort> nodes, JedisClientConfig config) {

        /** The master most of the Sentinels that answer name; null if none answers or two addresses tie. */
        @Nullable HostAndPort named() {
            Map<HostAndPort, Integer> votes = new LinkedHashMap<>();
            for (HostAndPort node : nodes) {
                try (Jedis sentinel = new Jedis(node, config)) {
                    List<String> master = sentinel.sentinelGetMasterAddrByName(masterName);
                    if (master != null && master.size() == 2) {
                        votes.merge(new HostAndPort(master.get(0), Integer.parseInt(master.get(1))), 1, Integer::sum);
                    }
                } catch (JedisException e) {
                    log.debug("Sentinel {} did not say which master it names", node, e);
                }
            }
            int most = votes.values().stream().max(Integer::compare).orElse(0);
            List<HostAndPort> leaders = votes.entrySet().stream().filter(vote -> vote.getValue() == most)
                    .map(Map.Entry::getKey).toList();
            return leaders.size() == 1 ? leaders.get(0) : null;
        }
    }

    /**
     * The release subscription: a connection of its own (taken out of the pool for good), on a thread of its own,
     * subscribed again after a lost connection until closed: one closed, or silent for six command timeouts (the
     * config's blocking read timeout) though pinged every five. The first subscription's outcome is reported;
     * later losses are retried every second, as Lettuce re-subscribes after a reconnect.
     */
    private final class Subscriber {
        private final String pattern;
        private final Consumer<String> onMessage;
        private final CompletableFuture<AutoCloseable> subscribed = new CompletableFuture<>();
        private final Thread thread;
        private volatile boolean ended;
        private volatile @Nullable Connection connection;

        Subscriber(String pattern, Consumer<String> onMessage) {
            this.pattern = pattern;
            this.onMessage = onMessage;
            this.thread = SUBSCRIBING.newThread(this::listen);
        }

        private void listen() {
            while (!ended && !closed) {
                Connection current = null;
                try {
                    current = provider(System.nanoTime() + commandTimeout.toNanos()).getConnection();
                    connection = current;
                    JedisPubSub pubSub = new JedisPubSub() {
                        @Override
                        public void onPMessage(String subscribedPattern, String channel, String message) {
                            onMessage.accept(channel);
                        }

                        @Override
                        public void onPSubscribe(String subscribedPattern, int count) {
                            subscribed.complete(Subscriber.this::close);
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
                if (!ended && !closed) {
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
                    RedisTransport.subscriptionPingInterval(commandTimeout).toMillis(), TimeUnit.MILLISECONDS, background);
            later.execute(() -> {
                if (ended || closed || !pubSub.isSubscribed()) {
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
            subscribers.remove(this);
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
    }
}
