package io.seatlock.localservers;

import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.HashMap;
import java.util.Map;

/**
 * Lets an app start on a machine with nothing installed: when no datasource or Redis is configured,
 * it points the app at {@link LocalServers} (127.0.0.1, Testcontainers or embedded). Configured
 * values always win; {@code seatlock.local-servers.enabled=false} switches this off.
 */
public class LocalServersEnvironmentPostProcessor implements EnvironmentPostProcessor {

    private final Log log;

    public LocalServersEnvironmentPostProcessor(DeferredLogFactory logs) {
        this.log = logs.getLog(LocalServersEnvironmentPostProcessor.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment env, SpringApplication application) {
        if (!env.getProperty("seatlock.local-servers.enabled", Boolean.class, true)) {
            return;
        }
        Map<String, Object> found = new HashMap<>();
        if (!env.containsProperty("spring.datasource.url")) {
            PostgresServer pg = LocalServers.postgres();
            String database = env.getProperty("seatlock.local-servers.database",
                    env.getProperty("spring.application.name", "seatlock").replace('-', '_'));
            pg.ensureDatabase(database);
            found.put("spring.datasource.url", pg.jdbcUrl(database));
            found.put("spring.datasource.username", pg.user());
            found.put("spring.datasource.password", pg.password());
            log.info("No spring.datasource.url configured: using " + pg + ", database " + database);
        }
        if (!env.containsProperty("spring.data.redis.host") && !env.containsProperty("spring.data.redis.url")
                && !env.containsProperty("seatlock.lock.redis-url")) {
            RedisServer redis = LocalServers.redis();
            found.put("spring.data.redis.host", redis.host());
            found.put("spring.data.redis.port", redis.port());
            log.info("No Redis configured: using " + redis);
        }
        if (!found.isEmpty()) {
            env.getPropertySources().addLast(new MapPropertySource("seatlockLocalServers", found));
        }
    }
}
