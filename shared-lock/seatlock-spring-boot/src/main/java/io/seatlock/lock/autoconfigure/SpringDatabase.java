package io.seatlock.lock.autoconfigure;

import org.jspecify.annotations.Nullable;

import java.util.Locale;
import java.util.Set;

/**
 * Where the application's own database is, as Spring Boot's {@code JdbcConnectionDetails} say (a class of another name
 * on each Boot line): {@code spring.datasource.*}, or a service connection's.
 */
final class SpringDatabase {

    static final String POSTGRESQL = "postgresql";
    static final String MYSQL = "mysql";
    static final String MARIADB = "mariadb";
    /** The kinds the MySQL store runs on: MySQL and MariaDB. */
    static final Set<String> MYSQL_KINDS = Set.of(MYSQL, MARIADB);

    private final String jdbcUrl;
    private final @Nullable String username;
    private final @Nullable String password;

    SpringDatabase(String jdbcUrl, @Nullable String username, @Nullable String password) {
        this.jdbcUrl = jdbcUrl;
        this.username = username;
        this.password = password;
    }

    /**
     * The database a JDBC URL names: {@code postgresql}, {@code mysql}, {@code mariadb}, ... (those three also behind
     * a wrapper's prefix, as in Testcontainers' {@code jdbc:tc:postgresql:}).
     */
    static String kindOf(String jdbcUrl) {
        String url = jdbcUrl.trim().toLowerCase(Locale.ROOT);
        if (!url.startsWith("jdbc:")) {
            return "not a JDBC URL";
        }
        for (String known : new String[] {POSTGRESQL, MYSQL, MARIADB}) {
            if (url.contains(":" + known + ":")) {
                return known;
            }
        }
        int end = url.indexOf(':', 5);
        return end > 5 ? url.substring(5, end) : "not a JDBC URL";
    }

    String jdbcUrl() {
        return jdbcUrl;
    }

    @Nullable String username() {
        return username;
    }

    @Nullable String password() {
        return password;
    }
}
