package io.seatlock.localservers;

import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;

/**
 * A PostgreSQL server that answers, and how it was found.
 *
 * @param source   configured, local, testcontainers or embedded
 * @param host     host to connect to
 * @param port     port to connect to
 * @param user     a role allowed to create databases
 * @param password its password (may be empty)
 */
public record PostgresServer(String source, String host, int port, String user, String password) {

    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,62}");

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    /** A data source for {@code database}; connecting gives up after a few seconds rather than hanging. */
    public DataSource dataSource(String database) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setServerNames(new String[] {host});
        ds.setPortNumbers(new int[] {port});
        ds.setDatabaseName(database);
        ds.setUser(user);
        ds.setPassword(password);
        ds.setLoginTimeout(3);
        return ds;
    }

    public Connection connect(String database) throws SQLException {
        return dataSource(database).getConnection();
    }

    /** Creates {@code database} unless it exists. */
    public void ensureDatabase(String database) {
        requireName(database);
        try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
            var rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database + "'");
            if (!rs.next()) {
                s.execute("CREATE DATABASE " + database);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + database + " on " + this, e);
        }
    }

    /** Drops {@code database}, closing whatever connections still use it. */
    public void dropDatabase(String database) {
        requireName(database);
        try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop database " + database + " on " + this, e);
        }
    }

    private static void requireName(String database) {
        if (!DATABASE_NAME.matcher(database).matches()) {
            throw new IllegalArgumentException("database name must match " + DATABASE_NAME + ": " + database);
        }
    }

    @Override
    public String toString() {
        return source + " PostgreSQL at " + host + ":" + port + " as " + user;
    }
}
