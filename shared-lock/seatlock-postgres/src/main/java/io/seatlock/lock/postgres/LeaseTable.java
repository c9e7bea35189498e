package io.seatlock.lock.postgres;

import io.seatlock.lock.jdbc.internal.LeaseRows;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** The lease table's DDL ({@link PostgresLock#DDL_RESOURCE}) under a table name of the settings', and running it. */
final class LeaseTable {

    private LeaseTable() {
    }

    /** Creates the table, its schema and sequence if missing, one replica at a time, and raises the sequence. */
    static void create(Connection connection, String table) throws SQLException {
        String ddl = ddl(table);
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement s = connection.createStatement()) {
            // CREATE ... IF NOT EXISTS is not safe against itself: replicas starting together take turns
            s.execute("SELECT pg_advisory_xact_lock(hashtext('" + table + "'))");
            s.execute(ddl);
            s.execute("SELECT setval('" + table + "_tokens', m) FROM (SELECT max(fencing_token) AS m FROM " + table
                    + ") t WHERE m > (SELECT last_value FROM " + table + "_tokens)");
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /** The shipped DDL with the table's (and its schema's, sequence's and constraint's) name put in. */
    static String ddl(String table) {
        String text = LeaseRows.ddl(PostgresLock.DDL_RESOURCE);
        int dot = table.indexOf('.');
        String schema = dot < 0 ? null : table.substring(0, dot);
        String simple = table.substring(dot + 1);
        String defaultTable = PostgresLockSettings.DEFAULT_TABLE;
        String defaultSchema = defaultTable.substring(0, defaultTable.indexOf('.'));
        return text.replace("CREATE SCHEMA IF NOT EXISTS " + defaultSchema + ";",
                        schema == null ? "" : "CREATE SCHEMA IF NOT EXISTS " + schema + ";")
                .replace(defaultTable, table)
                .replace("CONSTRAINT leases_grant", "CONSTRAINT " + simple + "_grant");
    }
}
