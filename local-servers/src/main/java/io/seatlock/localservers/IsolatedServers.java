package io.seatlock.localservers;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import javax.sql.DataSource;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Gives one test class its own PostgreSQL database and its own Redis key prefix, and removes both
 * after the class. Register it as a static {@code @RegisterExtension} field; it fails (never skips)
 * when no server can be had.
 */
public final class IsolatedServers implements AfterAllCallback {

    private final PostgresServer postgres = LocalServers.postgres();
    private final RedisServer redis = LocalServers.redis();
    private final String database;
    private final String keyPrefix;

    public IsolatedServers(String label) {
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        String clean = label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        this.database = "t_" + clean.substring(0, Math.min(clean.length(), 40)) + "_" + id;
        this.keyPrefix = "t" + id + ":";
        postgres.ensureDatabase(database);
    }

    public PostgresServer postgres() {
        return postgres;
    }

    public RedisServer redis() {
        return redis;
    }

    public String database() {
        return database;
    }

    public String jdbcUrl() {
        return postgres.jdbcUrl(database);
    }

    /** This class's own database, for asserting on rows. */
    public DataSource dataSource() {
        return postgres.dataSource(database);
    }

    public String keyPrefix() {
        return keyPrefix;
    }

    /** Spring Boot properties pointing an app at this class's database, Redis and key prefix. */
    public Map<String, String> springProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("spring.datasource.url", jdbcUrl());
        p.put("spring.datasource.username", postgres.user());
        p.put("spring.datasource.password", postgres.password());
        p.put("spring.data.redis.host", redis.host());
        p.put("spring.data.redis.port", Integer.toString(redis.port()));
        if (redis.password() != null) {
            p.put("spring.data.redis.password", redis.password());
        }
        p.put("seatlock.lock.key-prefix", keyPrefix);
        return p;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        redis.deleteKeys(keyPrefix);
        postgres.dropDatabase(database);
    }
}
