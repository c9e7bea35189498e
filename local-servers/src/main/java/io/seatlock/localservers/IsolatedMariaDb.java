package io.seatlock.localservers;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import javax.sql.DataSource;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Gives one test class its own MariaDB database, dropped after the class. Register it as a static
 * {@code @RegisterExtension} field; it fails (never skips) when no server can be had.
 */
public final class IsolatedMariaDb implements AfterAllCallback {

    private final MariaDbServer server = LocalServers.mariaDb();
    private final String database;

    public IsolatedMariaDb(String label) {
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        String clean = label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        this.database = "t_" + clean.substring(0, Math.min(clean.length(), 40)) + "_" + id;
        server.ensureDatabase(database);
    }

    public MariaDbServer server() {
        return server;
    }

    public String database() {
        return database;
    }

    public String jdbcUrl() {
        return server.jdbcUrl(database);
    }

    /** This class's own database, for asserting on rows. */
    public DataSource dataSource() {
        return server.dataSource(database);
    }

    /** Spring Boot properties pointing an app at this class's database. */
    public Map<String, String> springProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("spring.datasource.url", jdbcUrl());
        p.put("spring.datasource.username", server.user());
        p.put("spring.datasource.password", server.password());
        return p;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.dropDatabase(database);
    }
}
