package io.seatlock.lock.redis.jedis;

import org.jspecify.annotations.Nullable;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.DefaultJedisSocketFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.authentication.AuthXManager;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.providers.ConnectionProvider;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The standalone transport's connections to its one server: at most {@code size} lent at once, each borrowed within
 * its caller's deadline, the wait for a free one and a new one's connect and handshake together (commons-pool, under
 * Jedis' own pool, waits for a connection and opens one each within a fixed timeout of its own, so up to twice the
 * command timeout). A borrow and a return allocate nothing (commons-pool allocates instants, durations and a queue
 * node for each, about 0.25 KB a lock pair). Idle connections are kept, most recently used first, until closed; a
 * broken one is disconnected on return, never lent again. With token authentication that renews (an
 * {@link AuthXManager} in the config), a connection whose token was renewed since its last use authenticates again
 * before it is lent, within the same deadline; one that cannot is disconnected and the call fails.
 */
final class StandalonePool implements ConnectionProvider {

    private final HostAndPort node;
    private final JedisClientConfig config;
    private final Duration commandTimeout;
    /** One per connection lent: taken before a connection is looked for or opened, given back with it. */
    private final Semaphore lendable;
    /** Guarded by itself; never holds more than the pool lends, so pushing and popping allocate nothing. */
    private final ArrayDeque<Pooled> idle;
    private final @Nullable AuthXManager tokens;
    private volatile boolean closed;

    StandalonePool(HostAndPort node, JedisClientConfig config, Duration commandTimeout, int size) {
        this.node = node;
        this.config = config;
        this.commandTimeout = commandTimeout;
        this.lendable = new Semaphore(size);
        this.idle = new ArrayDeque<>(size);
        this.tokens = config.getAuthXManager();
        if (tokens != null) {
            // waits for the first token, as Jedis' own pool does; the transport makes its pool off its callers' threads
            tokens.start();
        }
    }

    /** A connection for a command that must be answered by {@code deadlineNanos}; hand it back with {@code close()}. */
    Connection borrow(long deadlineNanos) {
        if (!lendable.tryAcquire()) {
            waitForOne(deadlineNanos);
        }
        try {
            if (closed) {
                throw new IllegalStateException("the Jedis transport is closed");
            }
            Pooled connection;
            synchronized (idle) {
                connection = idle.pollFirst();
            }
            if (connection == null) {
                connection = new Pooled(new Bounded(node, config, deadlineNanos), config);
                if (tokens != null) {
                    tokens.addConnection(connection); // told of each renewed token from now on
                }
            } else if (tokens != null) {
                authenticateAgain(connection, deadlineNanos);
            }
            connection.lent = true;
            return connection;
        } catch (RuntimeException | Error e) {
            lendable.release();
            throw e;
        }
    }

    /** {@code AUTH} with the token renewed since the connection's last use, if there is one; else nothing is sent. */
    private static void authenticateAgain(Pooled connection, long deadlineNanos) {
        try {
            connection.setSoTimeout(JedisLending.millisLeft(deadlineNanos,
                    "could not authenticate again before the call's deadline"));
            connection.reAuthenticate();
        } catch (RuntimeException | Error e) {
            connection.setBroken();
            connection.disconnectQuietly();
            throw e;
        }
    }

    private void waitForOne(long deadlineNanos) {
        try {
            if (!lendable.tryAcquire(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                throw new JedisConnectionException("no pooled connection came free within " + commandTimeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JedisConnectionException("interrupted while waiting for a pooled connection", e);
        }
    }

    private void giveBack(Pooled connection) {
        boolean keep = !connection.isBroken() && !closed;
        if (keep) {
            synchronized (idle) {
                idle.offerFirst(connection);
            }
        }
        lendable.release();
        if (!keep) {
            connection.disconnectQuietly();
        } else if (closed) { // closed while it went back: close() may have drained the idle ones already
            drain();
        }
    }

    @Override
    public Connection getConnection() {
        return borrow(System.nanoTime() + commandTimeout.toNanos());
    }

    @Override
    public Connection getConnection(CommandArguments args) {
        return getConnection();
    }

    @Override
    public void close() {
        closed = true;
        drain();
        if (tokens != null) {
            tokens.stop();
        }
    }

    private void drain() {
        while (true) {
            Pooled connection;
            synchronized (idle) {
                connection = idle.pollFirst();
            }
            if (connection == null) {
                return;
            }
            connection.disconnectQuietly();
        }
    }

    /** The {@code EVALSHA} arguments {@code connection} keeps for its scripts, if it is one of a standalone pool. */
    static @Nullable EvalshaArguments evalshaArgumentsOf(Connection connection) {
        return connection instanceof Pooled pooled ? pooled.evalsha : null;
    }

    /** A connection of this pool: closing it hands it back, once. */
    private final class Pooled extends Connection {
        private final EvalshaArguments evalsha = new EvalshaArguments();
        /** Set by the borrower's thread, cleared by the thread that hands it back (after it, or handed it by it). */
        private boolean lent;

        Pooled(JedisSocketFactory sockets, JedisClientConfig config) {
            super(sockets, config);
        }

        @Override
        public void close() {
            if (lent) {
                lent = false;
                giveBack(this);
            }
        }

        /** A broken one is closed without flushing what it may hold: its peer may not be reading. */
        void disconnectQuietly() {
            try {
                if (isBroken()) {
                    forceDisconnect();
                } else {
                    disconnect();
                }
            } catch (IOException | RuntimeException e) {
                // the socket is closed all the same
            }
        }
    }

    /**
     * Jedis' own sockets, connected within the time left before the deadline (a host name with several addresses:
     * each address tried within it), then reading within what is left after the connect: the AUTH and SELECT of a new
     * connection, and with TLS the handshake, which Jedis starts on the first read or write (only a custom host name
     * verifier makes it start while connecting, within the time left before the connect).
     */
    private record Bounded(HostAndPort node, JedisClientConfig config, long deadlineNanos) implements JedisSocketFactory {
        @Override
        public Socket createSocket() {
            int connectMillis = millisLeft();
            Socket socket = new DefaultJedisSocketFactory(node, DefaultJedisClientConfig.builder().from(config)
                    .connectionTimeoutMillis(connectMillis).socketTimeoutMillis(connectMillis).build()).createSocket();
            try {
                socket.setSoTimeout(millisLeft());
                return socket;
            } catch (IOException | RuntimeException e) {
                try {
                    socket.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e instanceof JedisConnectionException jedis ? jedis : new JedisConnectionException(e);
            }
        }

        private int millisLeft() {
            return JedisLending.millisLeft(deadlineNanos, "could not connect to " + node + " before the call's deadline");
        }

        @Override
        public String toString() {
            return node.toString();
        }
    }
}
