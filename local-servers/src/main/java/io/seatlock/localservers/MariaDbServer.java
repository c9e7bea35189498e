package io.seatlock.localservers;

import org.mariadb.jdbc.MariaDbDataSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;

/**
 * A MariaDB server that answers, and how it was found.
 *
 * @param source   configured, local or embedded
 * @param host     host to connect to
 * @param port     port to connect to
 * @param user     a user allowed to create databases
 * @param password its password (may be empty)
 */
public record MariaDbServer(String source, String host, int port, String user, String password) {

    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,62}");

    /** The URL of {@code database}, each connect and socket read bounded. */
    public String jdbcUrl(String database) {
        return "jdbc:mariadb://" + host + ":" + port + "/" + database + "?connectTimeout=3000";
    }

    /** A data source for {@code database}; connecting gives up after a few seconds rather than hanging. */
    public DataSource dataSource(String database) {
        try {
            MariaDbDataSource ds = new MariaDbDataSource(jdbcUrl(database));
            ds.setUser(user);
            ds.setPassword(password);
            return ds;
        } catch (SQLException e) {
            throw new IllegalStateException("bad MariaDB URL " + jdbcUrl(database), e);
        }
    }

    /** Creates {@code database} unless it exists. */
    public void ensureDatabase(String database) {
        run("CREATE DATABASE IF NOT EXISTS " + requireName(database), database);
    }

    /** Drops {@code database}. */
    public void dropDatabase(String database) {
        run("DROP DATABASE IF EXISTS " + requireName(database), database);
    }

    boolean answers() {
        try (Connection c = dataSource("").getConnection()) {
            return c.isValid(3);
        } catch (SQLException e) {
            return false;
        }
    }

    private void run(String sql, String database) {
        try (Connection c = dataSource("").getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("could not run '" + sql + "' on " + this + " for " + database, e);
        }
    }

    private static String requireName(String database) {
        if (!DATABASE_NAME.matcher(database).matches()) {
            throw new IllegalArgumentException("database name must match " + DATABASE_NAME + ": " + database);
        }
        return database;
    }

    @Override
    public String toString() {
        return source + " MariaDB at " + host + ":" + port + " as " + user;
    }
}
