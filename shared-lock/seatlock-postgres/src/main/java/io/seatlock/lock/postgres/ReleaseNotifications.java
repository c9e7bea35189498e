package io.seatlock.lock.postgres;

import io.seatlock.lock.internal.DaemonThreads;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Hears releases: {@code LISTEN} on a connection of its own, taken from the pool on the first wait and kept, on one
 * daemon thread ({@code seatlock-pg-listener}). A hint only: PostgreSQL delivers a notification on commit and drops
 * none, but one sent while this was reconnecting is lost, so after every (re)connect every waiter is woken to look
 * again; a waiter also polls on its own back-off. A connection that stays silent is checked every few seconds.
 */
final class ReleaseNotifications implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReleaseNotifications.class);
    private static final int POLL_MILLIS = 250;
    private static final long CHECK_SILENT_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long RECONNECT_PAUSE_MILLIS = 500;

    private final DataSource dataSource;
    private final String channel;
    private final int checkTimeoutSeconds;
    private final Map<String, Set<CompletableFuture<Void>>> waiting = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> listening = new CompletableFuture<>();
    private volatile boolean closed;
    private volatile Thread thread;

    /**
     * @param callTimeout the lock's call bound; a check of the listening connection waits as long, in whole seconds
     *                    (what JDBC's {@code isValid} takes), at least one
     */
    ReleaseNotifications(DataSource dataSource, String channel, Duration callTimeout) {
        this.dataSource = dataSource;
        this.channel = channel;
        this.checkTimeoutSeconds = (int) Math.max(1, callTimeout.toSeconds());
    }

    /** Completes when {@code name} is next released and announced, or when the listener (re)connects. */
    CompletableFuture<Void> next(String name) {
        startOnce();
        CompletableFuture<Void> released = new CompletableFuture<>();
        waiting.computeIfAbsent(name, n -> ConcurrentHashMap.newKeySet()).add(released);
        released.whenComplete((done, error) -> waiting.computeIfPresent(name, (n, futures) -> {
            futures.remove(released);
            return futures.isEmpty() ? null : futures;
        }));
        return released;
    }

    /** Completes once the listener has its {@code LISTEN} in place: a release marked after it is heard. */
    CompletableFuture<Void> listening() {
        return listening;
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
                wakeAll(); // what was announced while nobody listened is lost: every waiter looks again
                hear(connection.unwrap(PGConnection.class), connection);
            } catch (SQLException | RuntimeException e) {
                if (closed) {
                    return;
                }
                log.debug("listening for released locks failed; reconnecting: {}", e.getMessage());
                wakeAll();
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
                    wake(notification.getParameter());
                }
            } else if (System.nanoTime() - lastHeard > CHECK_SILENT_NANOS) {
                if (!connection.isValid(checkTimeoutSeconds)) {
                    throw new SQLException("the listening connection did not answer a check");
                }
                lastHeard = System.nanoTime();
            }
        }
    }

    private void wake(String name) {
        Set<CompletableFuture<Void>> futures = waiting.remove(name);
        if (futures != null) {
            futures.forEach(f -> f.complete(null));
        }
    }

    private void wakeAll() {
        waiting.keySet().forEach(this::wake);
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
        waiting.values().forEach(futures -> futures.forEach(f -> f.cancel(false)));
        waiting.clear();
    }
}
