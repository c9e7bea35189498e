package io.seatlock.lock.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * Where the application's own database is, as Spring Boot's {@code JdbcConnectionDetails} say (a class of another name
 * on each Boot line): {@code spring.datasource.*}, or a service connection's.
 */
final class SpringDatabase {

    private final String jdbcUrl;
    private final @Nullable String username;
    private final @Nullable String password;

    SpringDatabase(String jdbcUrl, @Nullable String username, @Nullable String password) {
        this.jdbcUrl = jdbcUrl;
        this.username = username;
        this.password = password;
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
