package io.seatlock.lock.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;

/** What each database store does alike with its lease table: read its shipped DDL, collect the names a query finds. */
public final class LeaseRows {

    private LeaseRows() {
    }

    /**
     * The text of a DDL file shipped on the class path.
     *
     * @param resource its path on the class path
     * @return its text
     * @throws IllegalStateException if it is missing or cannot be read
     */
    public static String ddl(String resource) {
        try (InputStream in = LeaseRows.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("could not read " + resource, e);
        }
    }

    /**
     * The names in the first column of what {@code query} finds.
     *
     * @param query a prepared query whose first column is a lock's name
     * @return the names
     * @throws SQLException if the query failed
     */
    public static Set<String> names(PreparedStatement query) throws SQLException {
        Set<String> found = new HashSet<>();
        try (ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                found.add(rs.getString(1));
            }
        }
        return found;
    }
}
