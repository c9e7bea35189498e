package io.seatlock.lock.fencing;

import io.seatlock.lock.Fence;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.internal.FenceChecks;
import io.seatlock.lock.spi.LockListeners;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The storage side of fencing, in MySQL or MariaDB (InnoDB): remembers the newest fencing token accepted per resource
 * and rejects an older one.
 *
 * <p>Call {@link #admit} inside the same transaction as the guarded write. It raises the resource's fence row to the
 * token ({@code INSERT ... ON DUPLICATE KEY UPDATE}, which locks the row until the transaction ends, so concurrent
 * writers queue on it), then reads it back with a locking read, which sees the newest committed row whatever the
 * isolation level: of two holders, the stale one gets {@link StaleFencingTokenException} and its transaction must roll
 * back. Equal tokens are admitted, so one holder may write many times under one grant. Two first writers of a new
 * resource may meet in a deadlock InnoDB breaks by rolling one transaction back (an {@code SQLException}, error 1213):
 * its write did not happen, and it may try again.
 */
public final class MySqlFence implements Fence {

    /**
     * The table this fence needs, shipped as {@code classpath:db/seatlock-mysql/R__seatlock_lock_fences.sql}: add
     * {@code classpath:db/seatlock-mysql} to {@code spring.flyway.locations}, or run the file yourself.
     */
    public static final String DDL_RESOURCE = "db/seatlock-mysql/R__seatlock_lock_fences.sql";

    private static final Logger log = LoggerFactory.getLogger(MySqlFence.class);

    private final String raise;
    private final String newestSql;
    private final LockListener listener;

    /**
     * A fence on the table {@code lock_fences}.
     *
     * @param listener told of each refused token
     */
    public MySqlFence(LockListener listener) {
        this("lock_fences", listener);
    }

    /**
     * A fence on a table of its own.
     *
     * @param table    a plain SQL identifier, optionally database-qualified
     * @param listener told of each refused token
     */
    public MySqlFence(String table, LockListener listener) {
        PostgresFence.requireTableName(table);
        this.listener = LockListeners.guarded(List.of(Objects.requireNonNull(listener, "listener")));
        // the token bound twice: MariaDB has no row alias, and MySQL deprecates VALUES()
        this.raise = "INSERT INTO " + table + " (resource, token, updated_at) VALUES (?, ?, UTC_TIMESTAMP(6)) "
                + "ON DUPLICATE KEY UPDATE updated_at = IF(token <= ?, UTC_TIMESTAMP(6), updated_at), "
                + "token = GREATEST(token, ?)";
        this.newestSql = "SELECT token FROM " + table + " WHERE resource = ? LOCK IN SHARE MODE";
    }

    /**
     * Admits {@code token} for {@code resource} in the caller's transaction.
     *
     * @throws StaleFencingTokenException if a newer token was already admitted (the caller must roll back)
     * @throws IllegalStateException      if {@code connection} is in auto-commit mode; nothing is admitted
     */
    @Override
    public void admit(Connection connection, String resource, FencingToken token) throws SQLException {
        FenceChecks.requireAdmissible(connection, resource, token, "token fence");
        try (PreparedStatement raise = connection.prepareStatement(this.raise)) {
            raise.setString(1, resource);
            raise.setLong(2, token.value());
            raise.setLong(3, token.value());
            raise.setLong(4, token.value());
            raise.executeUpdate();
        }
        long newest = newest(connection, resource).orElseThrow(() ->
                new SQLException("the fence row of '" + resource + "' is missing right after it was written"));
        if (newest == token.value()) {
            return;
        }
        listener.onFencingRejected(resource);
        StaleFencingTokenException refused = new StaleFencingTokenException(resource, token, newest);
        log.atWarn().addKeyValue("seatlock.event", "fencing-rejected").addKeyValue("seatlock.lock.name", resource)
                .addKeyValue("seatlock.lock.fencing-token", token.value()).log(refused.getMessage());
        throw refused;
    }

    /**
     * The newest token admitted for {@code resource}, for status pages (a leader group's epoch).
     *
     * @param connection any connection to the database
     * @param resource   the fenced resource
     * @return the token, or empty if none was ever admitted
     * @throws SQLException if the query failed
     */
    public OptionalLong newest(Connection connection, String resource) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(newestSql)) {
            select.setString(1, resource);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }
}
