package io.seatlock.lock.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Collection;
import java.util.OptionalLong;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * One database's lease table: its statements, each one round trip in auto-commit mode with every time the database's
 * own, and how it says what went wrong. A lease is live while its row has an owner and its expiry is ahead; a
 * release keeps the row, so its fencing token only grows.
 */
public interface LeaseTableDialect {

    /** What a grant found when it was not granted. */
    record Refusal(boolean decided, @Nullable Duration busyFor) {
    }

    /**
     * The database's name in messages, e.g. {@code PostgreSQL}.
     *
     * @return the name
     */
    String storeName();

    /**
     * Creates the lease table (and what it needs) if missing, one replica at a time.
     *
     * @param connection a connection in auto-commit mode
     * @throws SQLException if the database refused
     */
    void createTable(Connection connection) throws SQLException;

    /**
     * The new grant's fencing token, or empty if the lock is held (or decided, when asked).
     *
     * @param lockWait how long the grant may wait for a row a guarded write holds, then it counts as busy
     * @throws SQLException if the statement failed
     */
    OptionalLong grant(Connection c, String name, String owner, String holder, Duration ttl, boolean unlessDecided,
                       Duration lockWait) throws SQLException;

    /**
     * Why {@code name} was not granted.
     *
     * @param c a borrowed connection in auto-commit mode
     * @param name the lock's name
     * @return what it found
     * @throws SQLException if the statement failed
     */
    Refusal refusal(Connection c, String name) throws SQLException;

    /**
     * Sets the lease's expiry to {@code ttl} from now if it is still live and ours.
     *
     * @param c a borrowed connection in auto-commit mode
     * @param name the lock's name
     * @param owner the grant's owner token
     * @param ttl the lease's time to live
     * @return true if the lease was still ours and live
     * @throws SQLException if the statement failed
     */
    boolean extend(Connection c, String name, String owner, Duration ttl) throws SQLException;

    /**
     * Ends the lease if it is still live and ours, telling waiters if the store can.
     *
     * @param c a borrowed connection in auto-commit mode
     * @param name the lock's name
     * @param owner the grant's owner token
     * @return true if the lease was still ours and live
     * @throws SQLException if the statement failed
     */
    boolean release(Connection c, String name, String owner) throws SQLException;

    /**
     * Leaves the decided marker whatever the lease's state, and ends the lease if it is still live and ours.
     *
     * @param c a borrowed connection in auto-commit mode
     * @param name the lock's name
     * @param owner the grant's owner token
     * @param keepMarkerFor how long the decided marker stays
     * @return true if the lease was still ours and live
     * @throws SQLException if the statement failed
     */
    boolean releaseDecided(Connection c, String name, String owner, Duration keepMarkerFor) throws SQLException;

    /**
     * The live lease's remaining time in milliseconds, at least one, or empty.
     *
     * @param c a borrowed connection in auto-commit mode
     * @param name the lock's name
     * @return the time left, or empty
     * @throws SQLException if the statement failed
     */
    OptionalLong remainingMillis(Connection c, String name) throws SQLException;

    /**
     * The live lease's holder, or null.
     *
     * @param c a borrowed connection in auto-commit mode
     * @param name the lock's name
     * @return the holder, or null
     * @throws SQLException if the statement failed
     */
    @Nullable String holder(Connection c, String name) throws SQLException;

    /**
     * The names with a live lease that start with {@code namePrefix}.
     *
     * @param c a borrowed connection in auto-commit mode
     * @param namePrefix the names' start
     * @return the names
     * @throws SQLException if the statement failed
     */
    Set<String> heldNames(Connection c, String namePrefix) throws SQLException;

    /**
     * Which of {@code names} have a live lease.
     *
     * @param c a borrowed connection in auto-commit mode
     * @param names the names
     * @return the names held
     * @throws SQLException if the statement failed
     */
    Set<String> held(Connection c, Collection<String> names) throws SQLException;

    /**
     * Whether a grant gave up waiting for a row a guarded write held: the lock counts as busy.
     *
     * @param e what the grant threw
     * @return true if so
     */
    boolean isRowWaitTimeout(SQLException e);

    /**
     * Whether the connection broke (the server ended the session, the socket closed), so that the work may be tried
     * again on another: by default a connection exception (SQLSTATE class 08) other than the pool's own "no
     * connection in time", for which there is nothing to try again on.
     *
     * @param e what the work threw
     * @return true if so
     */
    default boolean isBrokenConnection(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.startsWith("08") && !(e instanceof SQLTransientConnectionException);
    }

    /**
     * Whether the lease table (or what it needs) does not exist.
     *
     * @param e what a statement threw
     * @return true if so
     */
    boolean isMissingTable(SQLException e);

    /**
     * What to do about a missing table, in an operator's words.
     *
     * @return the advice
     */
    String missingTableAdvice();
}
