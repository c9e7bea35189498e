package io.seatlock.localservers;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import sun.misc.Signal;

import java.util.function.Function;

/**
 * Development-time services, the Spring Boot way: a test application class adds this configuration
 * ({@code SpringApplication.from(App::main).with(DevServers.class)}), and it contributes connection details
 * for whatever is not configured, from {@link LocalServers#forDevelopment}: configured, then 127.0.0.1,
 * then Testcontainers, then embedded servers on fixed ports that every run on this machine shares. It is
 * never on a production class path.
 */
@Configuration(proxyBeanMethods = false)
public class DevServers {

    private static final Logger log = LoggerFactory.getLogger(DevServers.class);

    @Bean
    @ConditionalOnExpression("'${spring.datasource.url:}'.isEmpty()")
    JdbcConnectionDetails devPostgres(Environment env) {
        PostgresServer pg = LocalServers.forDevelopment().postgres();
        String database = env.getProperty("seatlock.dev.database",
                env.getProperty("spring.application.name", "seatlock").replace('-', '_'));
        pg.ensureDatabase(database);
        log.info("No spring.datasource.url configured: using {}, database {}", pg, database);
        return new JdbcConnectionDetails() {
            @Override
            public String getUsername() {
                return pg.user();
            }

            @Override
            public String getPassword() {
                return pg.password();
            }

            @Override
            public String getJdbcUrl() {
                return pg.jdbcUrl(database);
            }
        };
    }

    @Bean
    @ConditionalOnExpression("'${spring.data.redis.host:}${spring.data.redis.url:}${spring.data.redis.sentinel.nodes:}"
            + "${spring.data.redis.cluster.nodes:}${seatlock.lock.redis-url:}'.isEmpty()")
    DataRedisConnectionDetails devRedis() {
        RedisServer redis = LocalServers.forDevelopment().redis();
        log.info("No Redis configured: using {}", redis);
        return new DataRedisConnectionDetails() {
            @Override
            public String getPassword() {
                return redis.password();
            }

            @Override
            public Standalone getStandalone() {
                return Standalone.of(redis.host(), redis.port());
            }
        };
    }

    /**
     * Runs a development application and ends with where its page is, and the replica's name there ({@code replica}
     * reads it from the application: the name its operations page and {@code /actuator/locks} show). A stop request ends the run as a
     * success: SIGTERM (what {@code spring-boot:test-run} sends when Maven alone got Ctrl-C or a kill) shuts the
     * application down as usual and exits 0, where a JVM would exit 143, which the plugin reports as a failed
     * build; Ctrl-C in the terminal exits 130, which it already counts as a success.
     */
    public static ConfigurableApplicationContext run(SpringApplication.Augmented application, String[] args, String page,
                                                     Function<ConfigurableApplicationContext, String> replica) {
        Signal.handle(new Signal("TERM"), signal -> System.exit(0));
        ConfigurableApplicationContext app = application.run(args).getApplicationContext();
        log.info("{} is on http://127.0.0.1:{}/ as replica {} (Ctrl-C stops it)", page,
                app.getEnvironment().getProperty("local.server.port"), replica.apply(app));
        return app;
    }
}
