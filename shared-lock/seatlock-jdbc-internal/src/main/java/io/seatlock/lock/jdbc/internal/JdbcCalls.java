package io.seatlock.lock.jdbc.internal;

import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockStoreRefusedException;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.spi.CallBound;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Every call of a lock to its database, each within the call timeout: a connection is borrowed (the pool's own wait must be no
 * longer), its socket reads are bounded by what is left of the call ({@link Connection#setNetworkTimeout}, restored
 * before the connection goes back), and it goes back to the pool when the call ends, so no connection is held while
 * a lease is. A call that fails is a {@link LockUnavailableException} naming what happened.
 */
public final class JdbcCalls implements CallBound {

    /**
     * What one call does on its connection.
     *
     * @param <T> its answer
     */
    @FunctionalInterface
    public interface Work<T> {
        /**
         * Does it.
         *
         * @param connection a borrowed connection, bounded
         * @return the answer
         * @throws SQLException if the database failed
         */
        T on(Connection connection) throws SQLException;
    }

    /** The driver sets a socket timeout on the calling thread; no thread of its own is asked for. */
    private static final Executor CALLING_THREAD = Runnable::run;
    private static final int MAX_TRIES = 8;
    /** SQLSTATE class 28: invalid authorization specification (a login the database refused). */
    private static final String INVALID_AUTHORIZATION_PREFIX = "28";
    private static final Logger log = LoggerFactory.getLogger(JdbcCalls.class);

    private final DataSource dataSource;
    private final LeaseTableDialect dialect;
    private final Duration callTimeout;
    private final LockListener listener;
    /** Whether a refused login was logged at ERROR since a call last succeeded. */
    private volatile boolean refusalLogged;

    /**
     * Calls on a data source.
     *
     * @param dataSource  where the lease table is
     * @param dialect     how that database says what went wrong
     * @param callTimeout the bound of every call
     * @param listener    told of each call that failed
     */
    public JdbcCalls(DataSource dataSource, LeaseTableDialect dialect, Duration callTimeout, LockListener listener) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.callTimeout = callTimeout;
        this.listener = listener;
    }

    @Override
    public Duration callTimeout() {
        return callTimeout;
    }

    /** A deadline one call timeout from now, on {@link System#nanoTime()}. */
    @Override
    public long callDeadline() {
        return System.nanoTime() + callTimeout.toNanos();
    }

    /**
     * Runs {@code work} on a borrowed connection within one call timeout.
     *
     * @param group the lock group, for the listener and the message
     * @param work  the statements
     * @param <T>   the answer
     * @return the answer
     * @throws LockUnavailableException if it could not, or the database refused it
     */
    public <T> T call(String group, Work<T> work) {
        return call(group, callDeadline(), work);
    }

    /**
     * Runs {@code work} on a borrowed connection by {@code deadline}.
     *
     * @param group    the lock group, for the listener and the message
     * @param deadline on {@link System#nanoTime()}
     * @param work     the statements
     * @param <T>      the answer
     * @return the answer
     * @throws LockUnavailableException if it could not, or the database refused it
     */
    public <T> T call(String group, long deadline, Work<T> work) {
        try {
            T answer = callOrThrow(deadline, work);
            if (refusalLogged) {
                refusalLogged = false;
            }
            return answer;
        } catch (SQLException e) {
            listener.onUnavailable(group);
            throw unavailable(group, e);
        }
    }

    /**
     * As {@link #call}, leaving the failure to the caller (a grant that timed out waiting for a row is busy). A pooled
     * connection found broken (its backend was ended since it was last used) is dropped and the work tried again on
     * another, within the same deadline and a few times at most (every idle connection of a pool may be broken): each
     * statement is safe to repeat (a grant accepts its own owner token).
     *
     * @param deadline on {@link System#nanoTime()}
     * @param work     the statements
     * @param <T>      the answer
     * @return the answer
     * @throws SQLException what the last try threw
     */
    public <T> T callOrThrow(long deadline, Work<T> work) throws SQLException {
        for (int tried = 1; ; tried++) {
            try {
                return once(deadline, work);
            } catch (SQLException e) {
                if (!dialect.isBrokenConnection(e) || tried == MAX_TRIES || deadline - System.nanoTime() <= 0) {
                    throw e;
                }
            }
        }
    }

    private <T> T once(long deadline, Work<T> work) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new SQLTransientConnectionException("borrowing a connection took longer than the call timeout of "
                        + callTimeout, "08001");
            }
            int previous = connection.getNetworkTimeout();
            connection.setNetworkTimeout(CALLING_THREAD, (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            try {
                return work.on(connection);
            } finally {
                if (!connection.isClosed()) {
                    connection.setNetworkTimeout(CALLING_THREAD, previous);
                }
            }
        }
    }

    /**
     * The failure of a call, in an operator's words; a refused login is a {@link LockStoreRefusedException}, logged at
     * {@code ERROR} once until a call succeeds.
     *
     * @param group the lock group
     * @param e     what the call threw
     * @return the exception to throw
     */
    public LockUnavailableException unavailable(String group, SQLException e) {
        String store = dialect.storeName();
        if (dialect.isMissingTable(e)) {
            return new LockUnavailableException(store + " lock unavailable for '" + group + "': "
                    + dialect.missingTableAdvice(), e);
        }
        String message = store + " lock unavailable for '" + group + "' within " + callTimeout + ": " + reason(e);
        if (loginRefusal(e) == null) {
            return new LockUnavailableException(message, e);
        }
        if (!refusalLogged) {
            refusalLogged = true; // once until a call succeeds: a refusal repeats on every call
            log.error("seatlock lock: {} refused the lock's login, and no retry mends that: {}. Fix the "
                + "application's database login (spring.datasource.username and password)", store, message);
        }
        return new LockStoreRefusedException(message, e);
    }

    /**
     * What went wrong, in an operator's words.
     *
     * @param e what a call threw
     * @return the reason
     */
    public static String reason(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String message = String.valueOf(e.getMessage());
        SQLException refusal = loginRefusal(e);
        if (refusal != null) {
            return "authentication failed: " + refusal.getMessage();
        }
        if (e instanceof SQLTransientConnectionException || message.contains("Connection is not available")) {
            return "no connection in time (the pool is exhausted or cannot connect): " + message;
        }
        if (message.contains("Read timed out") || hasCause(e, java.net.SocketTimeoutException.class)) {
            return "no answer in time (the server or the network is stuck)";
        }
        if (hasCause(e, java.net.ConnectException.class)) {
            return "connection refused: " + message;
        }
        if (state.startsWith("08") || state.startsWith("57P")) {
            return "the connection broke (the server went away or ended the session): " + message;
        }
        return message + (state.isEmpty() ? "" : " (SQLSTATE " + state + ")");
    }

    /** The database's refusal of the login (SQLSTATE class 28), here or in a cause the pool wrapped; else null. */
    private static @Nullable SQLException loginRefusal(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && sql.getSQLState().startsWith(INVALID_AUTHORIZATION_PREFIX)) {
                return sql;
            }
        }
        return null;
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
