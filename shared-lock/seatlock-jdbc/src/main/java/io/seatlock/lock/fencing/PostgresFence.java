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
import java.util.regex.Pattern;

/**
 * The storage side of fencing, in PostgreSQL: remembers the newest fencing token accepted per resource
 * and rejects an older one.
 *
 * <p>Call {@link #admit} inside the same transaction as the guarded write. It writes the resource's
 * fence row, so concurrent writers queue on that row lock and PostgreSQL re-checks the condition on
 * the newest committed version (Read Committed re-evaluation): of two holders, the stale one gets
 * {@link StaleFencingTokenException} and its transaction must roll back. Equal tokens are admitted,
 * so one holder may write many times under one grant.
 *
 * <p>Where the guarded row itself can carry the token, the same rule works without this table:
 * {@code UPDATE t SET ..., fence_token = :token WHERE id = :id AND fence_token <= :token}.
 */
public final class PostgresFence implements Fence {

    /**
     * The table this fence needs, shipped as {@code classpath:db/seatlock/R__seatlock_lock_fences.sql}: add
     * {@code classpath:db/seatlock} to {@code spring.flyway.locations}, or run the file yourself.
     */
    public static final String DDL_RESOURCE = "db/seatlock/R__seatlock_lock_fences.sql";

    private static final Logger log = LoggerFactory.getLogger(PostgresFence.class);
    private static final Pattern TABLE_NAME = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)?");

    private final String admitSql;
    private final String newestSql;
    private final LockListener listener;

    /**
     * A fence on the table {@code lock_fences}.
     * @param listener told of each refused token
     */
    public PostgresFence(LockListener listener) {
        this("lock_fences", listener);
    }

    /**
     * A fence on a table of its own.
     * @param table    a plain SQL identifier, optionally schema-qualified
     * @param listener told of each refused token
     */
    public PostgresFence(String table, LockListener listener) {
        requireTableName(table);
        this.listener = LockListeners.guarded(List.of(Objects.requireNonNull(listener, "listener")));
        this.admitSql = "INSERT INTO " + table + " AS f (resource, token) VALUES (?, ?) "
                + "ON CONFLICT (resource) DO UPDATE SET token = EXCLUDED.token, updated_at = now() "
                + "WHERE f.token <= EXCLUDED.token";
        this.newestSql = "SELECT token FROM " + table + " WHERE resource = ?";
    }

    /**
     * Admits {@code token} for {@code resource} in the caller's transaction.
     *
     * @throws StaleFencingTokenException if a newer token was already admitted (the caller must roll back)
     * @throws IllegalStateException      if {@code connection} is in auto-commit mode; nothing is admitted
     */
    public void admit(Connection connection, String resource, FencingToken token) throws SQLException {
        // Committed on its own, the admission would neither hold the fence row until the write commits nor roll back
        // with it: a stale holder admitted first could still write after the newer holder's write.
        FenceChecks.requireAdmissible(connection, resource, token, "token fence");
        try (PreparedStatement admit = connection.prepareStatement(admitSql)) {
            admit.setString(1, resource);
            admit.setLong(2, token.value());
            if (admit.executeUpdate() == 1) {
                return;
            }
        }
        listener.onFencingRejected(resource);
        StaleFencingTokenException refused = new StaleFencingTokenException(resource, token,
                newest(connection, resource).orElse(0));
        log.atWarn().addKeyValue("seatlock.event", "fencing-rejected").addKeyValue("seatlock.lock.name", resource)
                .addKeyValue("seatlock.lock.fencing-token", token.value()).log(refused.getMessage());
        throw refused;
    }

    /**
     * Checks a table name the library puts into SQL: a plain identifier, optionally schema-qualified.
     *
     * @param table the name
     * @return the name
     * @throws IllegalArgumentException for anything else
     */
    public static String requireTableName(String table) {
        if (table == null || !TABLE_NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("table must be a plain SQL identifier, was '" + table + "'");
        }
        return table;
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
