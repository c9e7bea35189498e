package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.seatlock.lock.redis.spi.RedisCommand;
import redis.clients.jedis.Connection;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.providers.ConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;
import redis.clients.jedis.exceptions.JedisConnectionException;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** How a Jedis transport uses a pooled connection: read within the caller's time left, then back, or destroyed. */
final class JedisLending {

    private static final Logger log = LoggerFactory.getLogger(JedisLending.class);

    /** Why a command had no time left before it was sent: made once, not on the hot path. */
    private final String noTimeLeft;
    /** Where broken connections are destroyed, see {@link #giveBack}. */
    private final ThreadPoolExecutor destroying = new ThreadPoolExecutor(JedisTransport.POOL_SIZE,
            JedisTransport.POOL_SIZE, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
            DaemonThreads.named("seatlock-jedis-destroy"));

    JedisLending(Duration commandTimeout) {
        this.noTimeLeft = "no answer within " + commandTimeout + " (the time went on getting a connection)";
        this.destroying.allowCoreThreadTimeOut(true);
    }

    /** The broken connections handed over still get closed. */
    void close() {
        destroying.shutdown();
    }

    /**
     * Back to the pool, or destroyed if it broke (a timeout, a cut mid-reply). A broken one is destroyed on a thread of
     * the transport's: on Sentinel and Cluster, commons-pool opens the replacement for a borrower waiting for a
     * connection on the thread that destroys one, and a caller past its deadline would then wait on somebody else's
     * connect and handshake (on a frozen Redis that asks a password, a second command timeout:
     * {@code JedisCallBoundTest}); and closing a TLS connection writes to a peer that may not be reading.
     */
    void giveBack(Connection connection) {
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
     * Sets {@code connection}'s read timeout to what is left until {@code deadline}, unless it is that already (as on
     * a busy path, where each call has the whole command timeout: the socket boxes each new value).
     */
    void readUntil(Connection connection, long deadline) {
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

    /** A pooled connection to the node that holds the command's keys (on a cluster, by their hash slot). */
    static Connection borrow(ConnectionProvider connections, RedisCommand<?> command, long deadline) {
        if (connections instanceof StandalonePool standalone) {
            return standalone.borrow(deadline);
        }
        if (!(connections instanceof ClusterConnectionProvider clusterNodes)) {
            return connections.getConnection();
        }
        String key = command.routingKey();
        return key == null ? clusterNodes.getConnection() : clusterNodes.getConnectionFromSlot(JedisClusterCRC16.getSlot(key));
    }
}
