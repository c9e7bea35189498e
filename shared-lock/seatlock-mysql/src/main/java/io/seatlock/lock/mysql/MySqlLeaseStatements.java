package io.seatlock.lock.mysql;

import io.seatlock.lock.jdbc.internal.LeaseRows;
import io.seatlock.lock.jdbc.internal.LeaseTableDialect;
import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The lock's statements on its lease table in MySQL 8 or MariaDB 10.11 (InnoDB), each in auto-commit mode. Every time
 * is {@code UTC_TIMESTAMP(6)}, the statement's start by the database's clock in UTC: a statement that waited for a row
 * judges expiry as of before its wait, so it finds a lease live a moment longer and grants one that ends a moment
 * sooner, both on the safe side, and it replicates as written (the real-time {@code SYSDATE(6)} is unsafe for
 * statement-based replication). A grant is one {@code UPDATE} of the row when the name has one, with the new token
 * taken by {@code LAST_INSERT_ID(expr)}; the first grant of a name inserts the row.
 */
final class MySqlLeaseStatements implements LeaseTableDialect {

    private static final int LOCK_WAIT_TIMEOUT = 1205;
    private static final int DEADLOCK = 1213;
    private static final int NO_SUCH_TABLE = 1146;
    private static final String NOW = "UTC_TIMESTAMP(6)";
    private static final String LIVE = "owner_token IS NOT NULL AND expires_at > " + NOW;
    private static final String TTL = "TIMESTAMPADD(MICROSECOND, ?, " + NOW + ")";
    private static final String MILLIS_LEFT = "CEIL(TIMESTAMPDIFF(MICROSECOND, " + NOW + ", expires_at) / 1000)";

    private final String table;
    private final String grant;
    private final String insert;
    private final String refusal;
    private final String extend;
    private final String release;
    private final String markDecided;
    private final String remaining;
    private final String holder;
    private final String namesLike;
    private final String namesIn;
    /** How long a renewal or a release waits for a row a guarded write holds: most of a call. */
    private final Duration writeWait;
    /** Whether the server is MariaDB, which bounds a statement's row wait in the statement itself; null until known. */
    private volatile @Nullable Boolean mariaDb;

    MySqlLeaseStatements(String table, Duration callTimeout) {
        this.table = table;
        this.writeWait = callTimeout.multipliedBy(3).dividedBy(4);
        this.grant = "UPDATE " + table + " SET fencing_token = LAST_INSERT_ID(fencing_token + 1), owner_token = ?, "
                + "holder = ?, expires_at = " + TTL + " WHERE name = ? "
                // its own owner token: a grant tried again after its connection broke may have landed the first time
                + "AND (owner_token IS NULL OR expires_at <= " + NOW + " OR owner_token = ?) "
                + "AND (? = 0 OR decided_until IS NULL OR decided_until <= " + NOW + ")";
        this.insert = "INSERT INTO " + table + " (name, owner_token, holder, fencing_token, expires_at) "
                + "SELECT ?, ?, ?, last_token + 1, " + TTL + " FROM " + table + "_tokens WHERE id = 1";
        this.refusal = "SELECT COALESCE(decided_until > " + NOW + ", FALSE), CASE WHEN " + LIVE + " THEN "
                + MILLIS_LEFT + " END FROM " + table + " WHERE name = ?";
        this.extend = "UPDATE " + table + " SET expires_at = " + TTL
                + " WHERE name = ? AND owner_token = ? AND expires_at > " + NOW;
        this.release = "UPDATE " + table + " SET owner_token = NULL, expires_at = " + NOW
                + " WHERE name = ? AND owner_token = ? AND expires_at > " + NOW;
        this.markDecided = "UPDATE " + table + " SET decided_until = " + TTL + " WHERE name = ?";
        this.remaining = "SELECT " + MILLIS_LEFT + " FROM " + table + " WHERE name = ? AND " + LIVE;
        this.holder = "SELECT holder FROM " + table + " WHERE name = ? AND " + LIVE;
        this.namesLike = "SELECT name FROM " + table + " WHERE name LIKE ? ESCAPE '|' AND " + LIVE;
        this.namesIn = "SELECT name FROM " + table + " WHERE " + LIVE + " AND name IN (";
    }

    @Override
    public String storeName() {
        return "MySQL";
    }

    /** Creates the tables and the trigger, one replica at a time (a named lock of the server's). */
    @Override
    public void createTable(Connection connection) throws SQLException {
        String lockName = "seatlock-ddl:" + table;
        try (Statement s = connection.createStatement()) {
            try (ResultSet got = s.executeQuery("SELECT GET_LOCK('" + lockName + "', 30)")) {
                if (!got.next() || got.getInt(1) != 1) {
                    throw new SQLException("another replica kept creating the lease table for 30 s");
                }
            }
            try {
                for (String statement : ddl(table).split(";\\s*\\n")) {
                    if (!statement.isBlank()) {
                        s.execute(statement);
                    }
                }
                // a table restored behind its rows' tokens: new rows start above all of them
                s.execute("UPDATE " + table + "_tokens SET last_token = GREATEST(last_token, (SELECT "
                        + "COALESCE(MAX(fencing_token), 0) FROM " + table + ")) WHERE id = 1");
            } finally {
                s.execute("DO RELEASE_LOCK('" + lockName + "')");
            }
        }
    }

    /** The shipped DDL with the table's (and its token table's and trigger's) name put in. */
    static String ddl(String table) {
        String text = LeaseRows.ddl(MySqlLock.DDL_RESOURCE);
        String body = text.substring(text.indexOf("CREATE TABLE")).replace(MySqlLockSettings.DEFAULT_TABLE, table);
        int dot = table.indexOf('.');
        return dot < 0 ? body : "CREATE DATABASE IF NOT EXISTS " + table.substring(0, dot) + ";\n" + body;
    }

    @Override
    public OptionalLong grant(Connection c, String name, String owner, String holderName, Duration ttl,
                              boolean unlessDecided, Duration lockWait) throws SQLException {
        long micros = ttl.toNanos() / 1_000;
        try (PreparedStatement s = c.prepareStatement(boundedWait(c, lockWait) + grant,
                Statement.RETURN_GENERATED_KEYS)) {
            s.setString(1, owner);
            s.setString(2, holderName);
            s.setLong(3, micros);
            s.setString(4, name);
            s.setString(5, owner);
            s.setBoolean(6, unlessDecided);
            if (s.executeUpdate() == 1) {
                try (ResultSet keys = s.getGeneratedKeys()) {
                    if (keys.next()) {
                        return OptionalLong.of(keys.getLong(1));
                    }
                }
                throw new SQLException("the grant's fencing token did not come back (LAST_INSERT_ID)");
            }
        }
        return firstGrant(c, name, owner, holderName, micros);
    }

    /** Inserts the name's row, granted; empty if the row is there already (held, or taken by another first grant). */
    private OptionalLong firstGrant(Connection c, String name, String owner, String holderName, long micros)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(insert)) {
            s.setString(1, name);
            s.setString(2, owner);
            s.setString(3, holderName);
            s.setLong(4, micros);
            if (s.executeUpdate() != 1) {
                throw new SQLException("the token table " + table + "_tokens has no row; run MySqlLock.createTable");
            }
        } catch (SQLIntegrityConstraintViolationException exists) {
            return OptionalLong.empty();
        }
        try (PreparedStatement s = c.prepareStatement("SELECT fencing_token FROM " + table
                + " WHERE name = ? AND owner_token = ?")) {
            s.setString(1, name);
            s.setString(2, owner);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    /**
     * How long a write waits for a row a guarded write holds, in whole seconds (InnoDB's unit), at least one: MariaDB
     * takes it in the statement; on MySQL it is set on the session, which a pool of the lock's own keeps to itself.
     */
    private String boundedWait(Connection c, Duration lockWait) throws SQLException {
        long seconds = Math.max(1, lockWait.toMillis() / 1000);
        if (isMariaDb(c)) {
            return "SET STATEMENT innodb_lock_wait_timeout = " + seconds + " FOR ";
        }
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION innodb_lock_wait_timeout = " + seconds);
        }
        return "";
    }

    private boolean isMariaDb(Connection c) throws SQLException {
        Boolean known = mariaDb;
        if (known == null) {
            String product = c.getMetaData().getDatabaseProductName() + " " + c.getMetaData().getDatabaseProductVersion();
            known = product.toLowerCase(java.util.Locale.ROOT).contains("mariadb");
            mariaDb = known;
        }
        return known;
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
                return new Refusal(rs.getBoolean(1), rs.wasNull() ? null : Duration.ofMillis(Math.max(1, left)));
            }
        }
    }

    @Override
    public boolean extend(Connection c, String name, String owner, Duration ttl) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(boundedWait(c, writeWait) + extend)) {
            s.setLong(1, ttl.toNanos() / 1_000);
            s.setString(2, name);
            s.setString(3, owner);
            return s.executeUpdate() == 1;
        }
    }

    @Override
    public boolean release(Connection c, String name, String owner) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(boundedWait(c, writeWait) + release)) {
            s.setString(1, name);
            s.setString(2, owner);
            return s.executeUpdate() == 1;
        }
    }

    /** The marker first, then the release: between the two the lease is still held, so no grant slips in. */
    @Override
    public boolean releaseDecided(Connection c, String name, String owner, Duration keepMarkerFor) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(boundedWait(c, writeWait) + markDecided)) {
            s.setLong(1, keepMarkerFor.toNanos() / 1_000);
            s.setString(2, name);
            s.executeUpdate();
        }
        return release(c, name, owner);
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
            s.setString(1, namePrefix.replace("|", "||").replace("%", "|%").replace("_", "|_") + "%");
            return LeaseRows.names(s);
        }
    }

    @Override
    public Set<String> held(Connection c, Collection<String> names) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(namesIn + String.join(", ", Collections.nCopies(names.size(), "?"))
                + ")")) {
            int i = 1;
            for (String name : names) {
                s.setString(i++, name);
            }
            return LeaseRows.names(s);
        }
    }

    /** A grant that waited out a guarded write, or that InnoDB chose as a deadlock's victim: rolled back, not granted. */
    @Override
    public boolean isRowWaitTimeout(SQLException e) {
        return e.getErrorCode() == LOCK_WAIT_TIMEOUT || e.getErrorCode() == DEADLOCK;
    }

    @Override
    public boolean isMissingTable(SQLException e) {
        return e.getErrorCode() == NO_SUCH_TABLE && e.getMessage() != null && e.getMessage().contains(table);
    }

    @Override
    public String missingTableAdvice() {
        return "the lease table '" + table + "' (or " + table + "_tokens) does not exist; create it with "
                + MySqlLock.DDL_RESOURCE + " before the application starts, or let the lock create it "
                + "(MySqlLock.createTable; the Spring Boot starter does unless told not to)";
    }
}
