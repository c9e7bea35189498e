package io.seatlock.lock.postgres;

import io.seatlock.lock.jdbc.internal.LeaseRows;
import io.seatlock.lock.jdbc.internal.LeaseTableDialect;
import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Collection;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The lock's statements on its lease table, each one round trip in auto-commit mode. Every time is the database's
 * ({@code clock_timestamp()}, which moves within a statement, not the transaction's {@code now()}); a lease is live
 * while it has an owner and its expiry is ahead. A grant waits for guarded writes of the previous holder at most the
 * call bound ({@code lock_timeout}, set for the statement alone).
 */
final class LeaseStatements implements LeaseTableDialect {

    private static final String LOCK_NOT_AVAILABLE = "55P03";
    private static final String UNDEFINED_TABLE = "42P01";
    private static final String UNDEFINED_OBJECT_PREFIX = "42P";

    private static final String LIVE = "owner_token IS NOT NULL AND expires_at > clock_timestamp()";
    private static final String MILLIS = "?::bigint * interval '1 millisecond'";

    private final String table;
    private final String channel;
    private final String grant;
    private final String refusal;
    private final String extend;
    private final String release;
    private final String releaseDecided;
    private final String markWaited;
    private final String remaining;
    private final String holder;
    private final String namesLike;
    private final String namesIn;

    LeaseStatements(String table) {
        this.table = table;
        this.channel = table.replace('.', '_') + "_released";
        this.grant = "WITH bound AS MATERIALIZED (SELECT set_config('lock_timeout', ?, true)) "
                + "INSERT INTO " + table + " AS l (name, owner_token, holder, fencing_token, expires_at) "
                + "SELECT ?, ?, ?, nextval('" + table + "_tokens'), clock_timestamp() + " + MILLIS + " FROM bound "
                + "ON CONFLICT (name) DO UPDATE SET owner_token = EXCLUDED.owner_token, holder = EXCLUDED.holder, "
                // the sequence's value, drawn before this waited for the row, may be behind the row's own
                + "fencing_token = GREATEST(EXCLUDED.fencing_token, l.fencing_token + 1), "
                + "expires_at = clock_timestamp() + " + MILLIS + ", waited = false "
                // its own owner token: a grant tried again after its connection broke may have landed the first time
                + "WHERE (l.owner_token IS NULL OR l.expires_at <= clock_timestamp() "
                + "OR l.owner_token = EXCLUDED.owner_token) "
                + "AND (NOT ? OR l.decided_until IS NULL OR l.decided_until <= clock_timestamp()) "
                + "RETURNING fencing_token";
        this.refusal = "SELECT COALESCE(decided_until > clock_timestamp(), false), CASE WHEN " + LIVE
                + " THEN ceil(extract(epoch FROM expires_at - clock_timestamp()) * 1000)::bigint END FROM " + table
                + " WHERE name = ?";
        this.extend = "UPDATE " + table + " SET expires_at = clock_timestamp() + " + MILLIS
                + " WHERE name = ? AND owner_token = ? AND expires_at > clock_timestamp()";
        this.release = "WITH released AS (UPDATE " + table + " SET owner_token = NULL, expires_at = clock_timestamp() "
                + "WHERE name = ? AND owner_token = ? AND expires_at > clock_timestamp() RETURNING name, waited) "
                + "SELECT CASE WHEN waited THEN pg_notify('" + channel + "', name) END FROM released";
        this.releaseDecided = "WITH before AS (SELECT owner_token = ? AND expires_at > clock_timestamp() AS ours FROM "
                + table + " WHERE name = ? FOR NO KEY UPDATE), "
                + "done AS (UPDATE " + table + " t SET decided_until = clock_timestamp() + " + MILLIS + ", "
                + "owner_token = CASE WHEN before.ours THEN NULL ELSE t.owner_token END, "
                + "expires_at = CASE WHEN before.ours THEN clock_timestamp() ELSE t.expires_at END "
                + "FROM before WHERE t.name = ? RETURNING before.ours, t.waited, t.name) "
                + "SELECT ours, CASE WHEN ours AND waited THEN pg_notify('" + channel + "', name) END FROM done";
        this.markWaited = "UPDATE " + table + " SET waited = true WHERE name = ? AND " + LIVE;
        this.remaining = "SELECT ceil(extract(epoch FROM expires_at - clock_timestamp()) * 1000)::bigint FROM " + table
                + " WHERE name = ? AND " + LIVE;
        this.holder = "SELECT holder FROM " + table + " WHERE name = ? AND " + LIVE;
        this.namesLike = "SELECT name FROM " + table + " WHERE name LIKE ? AND " + LIVE;
        this.namesIn = "SELECT name FROM " + table + " WHERE name = ANY (?) AND " + LIVE;
    }

    /** The channel a release announces itself on, when a waiter marked the lock. */
    String channel() {
        return channel;
    }

    @Override
    public String storeName() {
        return "PostgreSQL";
    }

    @Override
    public void createTable(Connection connection) throws SQLException {
        LeaseTable.create(connection, table);
    }

    @Override
    public boolean isRowWaitTimeout(SQLException e) {
        return LOCK_NOT_AVAILABLE.equals(e.getSQLState());
    }

    /** Also an administrator's shutdown of the session (57P01), besides the connection exceptions. */
    @Override
    public boolean isBrokenConnection(SQLException e) {
        return LeaseTableDialect.super.isBrokenConnection(e)
                || "57P01".equals(e.getSQLState()) && !(e instanceof SQLTransientConnectionException);
    }

    @Override
    public boolean isMissingTable(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return UNDEFINED_TABLE.equals(state) || state.startsWith(UNDEFINED_OBJECT_PREFIX) && e.getMessage() != null
                && e.getMessage().contains(table);
    }

    @Override
    public String missingTableAdvice() {
        return "the lease table '" + table + "' (or its sequence " + table + "_tokens) does not exist; create it with "
                + PostgresLock.DDL_RESOURCE + " before the application starts, or let the lock create it "
                + "(PostgresLock.createTable; the Spring Boot starter does unless told not to)";
    }

    @Override
    public OptionalLong grant(Connection c, String name, String owner, String holderName, Duration ttl, boolean unlessDecided,
                       Duration lockWait) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(grant)) {
            s.setString(1, Math.max(1, lockWait.toMillis()) + "ms");
            s.setString(2, name);
            s.setString(3, owner);
            s.setString(4, holderName);
            s.setLong(5, ttl.toMillis());
            s.setLong(6, ttl.toMillis());
            s.setBoolean(7, unlessDecided);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    @Override
    public Refusal refusal(Connection c, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(refusal)) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return new Refusal(false, null);
                }
                long left = rs.getLong(2);
                return new Refusal(rs.getBoolean(1), rs.wasNull() ? null : Duration.ofMillis(left));
            }
        }
    }

    @Override
    public boolean extend(Connection c, String name, String owner, Duration ttl) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(extend)) {
            s.setLong(1, ttl.toMillis());
            s.setString(2, name);
            s.setString(3, owner);
            return s.executeUpdate() == 1;
        }
    }

    /** Ends the lease if it is still live and ours, telling waiters if one marked it. */
    @Override
    public boolean release(Connection c, String name, String owner) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(release)) {
            s.setString(1, name);
            s.setString(2, owner);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public boolean releaseDecided(Connection c, String name, String owner, Duration keepMarkerFor) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(releaseDecided)) {
            s.setString(1, owner);
            s.setString(2, name);
            s.setLong(3, keepMarkerFor.toMillis());
            s.setString(4, name);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /** Marks a live lease as waited for, so its release announces itself; false if the lock is free. */
    boolean markWaited(Connection c, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(markWaited)) {
            s.setString(1, name);
            return s.executeUpdate() == 1;
        }
    }

    @Override
    public OptionalLong remainingMillis(Connection c, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(remaining)) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? OptionalLong.of(Math.max(1, rs.getLong(1))) : OptionalLong.empty();
            }
        }
    }

    @Override
    public @Nullable String holder(Connection c, String name) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(holder)) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    @Override
    public Set<String> heldNames(Connection c, String namePrefix) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(namesLike)) {
            s.setString(1, namePrefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
            return LeaseRows.names(s);
        }
    }

    @Override
    public Set<String> held(Connection c, Collection<String> names) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(namesIn)) {
            s.setArray(1, c.createArrayOf("text", names.toArray()));
            return LeaseRows.names(s);
        }
    }
}
