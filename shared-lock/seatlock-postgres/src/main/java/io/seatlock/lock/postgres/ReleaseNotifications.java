package io.seatlock.lock.postgres;

import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.internal.DaemonThreads;
import io.seatlock.lock.jdbc.internal.JdbcCalls;
import io.seatlock.lock.jdbc.internal.ReleaseSignals;
import io.seatlock.lock.jdbc.internal.ReleaseWaiters;
import io.seatlock.lock.spi.LockListeners;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Hears releases: {@code LISTEN} on a connection of its own, taken from the pool on the first wait and kept, on one
 * daemon thread ({@code seatlock-pg-listener}). A hint only: PostgreSQL delivers a notification on commit and drops
 * none, but one sent while this was reconnecting is lost, so after every (re)connect every waiter is woken to look
 * again; a waiter also polls on its own back-off. A connection that stays silent is checked every few seconds. A
 * release announces itself only when a waiter marked the lease row (one statement, once the listener is in place).
 */
final class ReleaseNotifications implements ReleaseSignals {

    private static final Logger log = LoggerFactory.getLogger(ReleaseNotifications.class);
    private static final int POLL_MILLIS = 250;
    private static final long CHECK_SILENT_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long RECONNECT_PAUSE_MILLIS = 500;

    private final DataSource dataSource;
    private final LeaseStatements statements;
    private final String channel;
    private final JdbcCalls calls;
    private final Executor background;
    private final int checkTimeoutSeconds;
    private final ReleaseWaiters waiting = new ReleaseWaiters();
    private final CompletableFuture<Void> listening = new CompletableFuture<>();
    private volatile boolean closed;
    private volatile Thread thread;

    /**
     * @param callTimeout the lock's call bound; a check of the listening connection waits as long, in whole seconds
     *                    (what JDBC's {@code isValid} takes), at least one
     */
    ReleaseNotifications(DataSource dataSource, LeaseStatements statements, Duration callTimeout, JdbcCalls calls,
                         Executor background) {
        this.dataSource = dataSource;
        this.statements = statements;
        this.channel = statements.channel();
        this.calls = calls;
        this.background = background;
        this.checkTimeoutSeconds = (int) Math.max(1, callTimeout.toSeconds());
    }

    /**
     * Completes when {@code name} is next released and announced, or when the listener (re)connects; marks the lease
     * row as waited for once the listener is in place, and completes at once if the lock turns out to be free.
     */
    @Override
    public CompletableFuture<Void> next(String name) {
        startOnce();
        CompletableFuture<Void> released = waiting.next(name);
        listening.thenRunAsync(() -> {
            try {
                if (!calls.call(LockListeners.groupOf(name), c -> statements.markWaited(c, name))) {
                    released.complete(null); // free already
                }
            } catch (LockUnavailableException e) {
                log.debug("could not mark '{}' as waited for; the waiter polls: {}", name, e.getMessage());
            }
        }, background);
        return released;
    }

    /** A release of this lock's is announced like any other, when a waiter marked it. */
    @Override
    public void releasedHere(String name) {
    }

    private void startOnce() {
        if (thread == null) {
            synchronized (this) {
                if (thread == null && !closed) {
                    Thread started = DaemonThreads.named("seatlock-pg-listener").newThread(this::listen);
                    started.start();
                    thread = started;
                }
            }
        }
    }

    private void listen() {
        while (!closed) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                try (Statement listen = connection.createStatement()) {
                    listen.execute("LISTEN " + channel);
                }
                listening.complete(null);
                waiting.wakeAll(); // what was announced while nobody listened is lost: every waiter looks again
                hear(connection.unwrap(PGConnection.class), connection);
            } catch (SQLException | RuntimeException e) {
                if (closed) {
                    return;
                }
                log.debug("listening for released locks failed; reconnecting: {}", e.getMessage());
                waiting.wakeAll();
                try {
                    Thread.sleep(RECONNECT_PAUSE_MILLIS);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    private void hear(PGConnection notifications, Connection connection) throws SQLException {
        long lastHeard = System.nanoTime();
        while (!closed) {
            PGNotification[] heard = notifications.getNotifications(POLL_MILLIS);
            if (heard != null && heard.length > 0) {
                lastHeard = System.nanoTime();
                for (PGNotification notification : heard) {
                    waiting.wake(notification.getParameter());
                }
            } else if (System.nanoTime() - lastHeard > CHECK_SILENT_NANOS) {
                if (!connection.isValid(checkTimeoutSeconds)) {
                    throw new SQLException("the listening connection did not answer a check");
                }
                lastHeard = System.nanoTime();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        Thread running = thread;
        if (running != null) {
            running.interrupt();
            try {
                running.join(TimeUnit.SECONDS.toMillis(checkTimeoutSeconds) + POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        waiting.cancelAll();
    }
}
