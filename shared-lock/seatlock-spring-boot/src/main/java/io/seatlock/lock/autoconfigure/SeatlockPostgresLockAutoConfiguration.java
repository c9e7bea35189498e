package io.seatlock.lock.autoconfigure;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.postgres.PostgresLeaseFence;
import io.seatlock.lock.postgres.PostgresLock;
import io.seatlock.lock.postgres.PostgresLockSettings;
import io.seatlock.lock.spi.LockListeners;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;

import static io.seatlock.lock.autoconfigure.InvalidSeatlockConfigurationException.checked;

/**
 * The PostgreSQL lock, when PostgreSQL is the store ({@link SeatlockStoreCondition}): on the application's own
 * database ({@code spring.datasource.*}, or any {@code JdbcConnectionDetails}) through a small HikariCP pool of its
 * own ({@code seatlock.lock.postgres.*}), with the lease table created before any bean gets the lock, and the lease
 * fence as the application's {@link Fence}. Backs off when the application defines its own {@link DistributedLock}.
 */
@AutoConfiguration(afterName = {"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration"})
@ConditionalOnClass(PostgresLock.class)
@ConditionalOnBooleanProperty(name = "seatlock.lock.enabled", matchIfMissing = true)
@Conditional(SeatlockStoreCondition.OnPostgres.class)
@EnableConfigurationProperties(SeatlockLockProperties.class)
public class SeatlockPostgresLockAutoConfiguration {

    /** Made by Spring Boot, which finds this class in the auto-configuration imports. */
    public SeatlockPostgresLockAutoConfiguration() {
    }

    private static final Logger log = LoggerFactory.getLogger(SeatlockPostgresLockAutoConfiguration.class);
    private static final String HIKARI = "com.zaxxer.hikari.HikariDataSource";
    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    private static final String FIX_THE_VALUE = "Correct the property; docs/spring-boot.md lists each seatlock property "
            + "with its default and range.";

    /** The lock's own pool, closed after the lock. */
    static final class LockPool implements AutoCloseable {
        private final HikariDataSource pool;

        LockPool(HikariDataSource pool) {
            this.pool = pool;
        }

        @Override
        public void close() {
            pool.close();
        }
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(DistributedLock.class)
    LockPool seatlockLockPool(SeatlockLockProperties properties, ObjectProvider<SpringDatabase> jdbc) {
        SpringDatabase details = jdbc.getIfAvailable();
        if (details == null) {
            String description = properties.store() == null
                    ? "No store is configured for the seatlock lock: no Redis (seatlock.lock.redis-url, "
                    + "seatlock.lock.cluster-nodes or spring.data.redis.*) and no PostgreSQL database "
                    + "(spring.datasource.url); it does not fall back to localhost, where each replica would lock on a "
                    + "store of its own."
                    : "seatlock.lock.store is postgres, but the application has no database configured "
                    + "(spring.datasource.url).";
            throw new InvalidSeatlockConfigurationException(description, "Set seatlock.lock.redis-url (or "
                    + "spring.data.redis.host) to the Redis every replica shares, or spring.datasource.url to the "
                    + "PostgreSQL they share (with spring-boot-starter-jdbc); or set seatlock.lock.enabled=false and "
                    + "define a DistributedLock bean of your own.", null);
        }
        String kind = SpringDatabase.kindOf(details.jdbcUrl());
        if (!kind.equals(SpringDatabase.POSTGRESQL)) {
            throw new InvalidSeatlockConfigurationException("The seatlock lock's store is PostgreSQL, but the "
                    + "application's database (spring.datasource.url) is " + kind + ".", "Set seatlock.lock.redis-url (or "
                    + "spring.data.redis.host) to the Redis every replica shares, or spring.datasource.url to a PostgreSQL "
                    + "database; or set seatlock.lock.enabled=false and define a DistributedLock bean of your own.", null);
        }
        if (!ClassUtils.isPresent(HIKARI, getClass().getClassLoader())) {
            throw new InvalidSeatlockConfigurationException("The seatlock lock on PostgreSQL needs a pool of its own, "
                    + "made with HikariCP (com.zaxxer:HikariCP), which is not on the class path.",
                    "Add spring-boot-starter-jdbc (it has HikariCP), or define a DistributedLock bean of your own "
                    + "(PostgresLock.over(dataSource, settings, listener)).", null);
        }
        SeatlockLockProperties.Postgres postgres = properties.postgres();
        Duration callTimeout = checked("seatlock.lock.postgres.call-timeout", FIX_THE_VALUE,
                () -> PostgresLockSettings.defaults().withCallTimeout(postgres.callTimeout()).callTimeout());
        if (postgres.poolSize() < 2) {
            throw new InvalidSeatlockConfigurationException("Invalid seatlock.lock.postgres.pool-size: "
                    + postgres.poolSize() + "; the lock needs one connection for its release listener and at least one "
                    + "for its calls.", "Set seatlock.lock.postgres.pool-size to 2 or more (default 10).", null);
        }
        HikariConfig config = new HikariConfig();
        config.setPoolName("seatlock-lock");
        config.setJdbcUrl(details.jdbcUrl());
        config.setUsername(details.username());
        config.setPassword(details.password());
        config.setMaximumPoolSize(postgres.poolSize());
        config.setMinimumIdle(1);
        config.setConnectionTimeout(Math.max(250, callTimeout.toMillis())); // HikariCP's least; the call bound counts too
        config.setValidationTimeout(Math.max(250, callTimeout.toMillis()));
        config.setInitializationFailTimeout(-1); // a database that does not answer yet is a cold start, not a failure
        config.addDataSourceProperty("connectTimeout", Math.max(1, (int) Math.ceil(callTimeout.toMillis() / 1000.0)));
        config.addDataSourceProperty("tcpKeepAlive", true);
        return new LockPool(new HikariDataSource(config));
    }

    /**
     * The lock, with its table created (unless {@code seatlock.lock.postgres.create-table=false}) before it is handed
     * to any bean, so the migration gate finds the table. A database that does not answer yet is logged and the
     * application starts; lock calls then fail fast until it answers. A database that refuses to create the table
     * (no right to) stops start-up.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnBean(LockPool.class)
    PostgresLock distributedLock(LockPool pool, SeatlockLockProperties properties,
                                 ObjectProvider<LockListener> listeners) {
        SeatlockLockProperties.Postgres postgres = properties.postgres();
        PostgresLockSettings settings = checked("seatlock.lock", FIX_THE_VALUE, 
                () -> PostgresLockSettings.defaults().withTable(postgres.table())
                        .withInstanceId(properties.instanceIdOrDefault()).withCallTimeout(postgres.callTimeout())
                        .withTiming(properties.timing()));
        PostgresLock lock = PostgresLock.over(pool.pool, settings,
                LockListeners.guarded(listeners.orderedStream().toList()));
        long start = System.nanoTime();
        try {
            if (postgres.createTable()) {
                lock.createTable();
            } else {
                lock.remainingTtl("seatlock-startup-check"); // says at once if the table is missing
            }
            log.info("seatlock lock on PostgreSQL (table {}, pool of {}) ready in {} ms; no Redis is configured, or "
                    + "seatlock.lock.store=postgres", settings.table(), postgres.poolSize(),
                    Duration.ofNanos(System.nanoTime() - start).toMillis());
        } catch (LockUnavailableException e) {
            if (e.getCause() instanceof SQLException sql && INSUFFICIENT_PRIVILEGE.equals(sql.getSQLState())
                    || e.getMessage().contains("does not exist")) {
                lock.close();
                throw new InvalidSeatlockConfigurationException("The seatlock lock's table " + settings.table()
                        + " cannot be used: " + e.getMessage(), "Run " + PostgresLock.DDL_RESOURCE + " (in "
                        + "io.seatlock:seatlock-postgres) as an owner of the database, or let the lock create it "
                        + "(seatlock.lock.postgres.create-table=true) as a user allowed to.", e);
            }
            log.warn("seatlock lock: PostgreSQL did not answer while the application started: {}. The application "
                    + "starts; lock calls fail with LockUnavailableException until it answers (each within {})",
                    e.getMessage(), postgres.callTimeout());
        }
        return lock;
    }

    @Bean
    @ConditionalOnBean(PostgresLock.class)
    ReplicaLocks seatlockReplicaLocks(PostgresLock lock) {
        return new ReplicaLocks(lock, lock::ping, lock.settings().instanceId(), lock::heldLeases,
                Map.of("store", "postgres", "table", lock.settings().table()));
    }

    /** Writes fenced by the lease itself: a paused holder is refused even before a newer one writes. */
    @Bean
    @ConditionalOnBean(PostgresLock.class)
    @ConditionalOnMissingBean(Fence.class)
    PostgresLeaseFence postgresLeaseFence(PostgresLock lock, ObjectProvider<LockListener> listeners) {
        return new PostgresLeaseFence(lock.settings(), LockListeners.guarded(listeners.orderedStream().toList()));
    }

    /** The application's database as Spring Boot 4 says it. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = Boot4Jdbc.DETAILS)
    static class Boot4Jdbc {
        static final String DETAILS = "org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails";

        @Bean
        @ConditionalOnBean(type = DETAILS)
        SpringDatabase seatlockSpringDatabase(org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails details) {
            return new SpringDatabase(details.getJdbcUrl(), details.getUsername(), details.getPassword());
        }
    }

    /** The application's database as Spring Boot 3.5 says it. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = Boot3Jdbc.DETAILS)
    static class Boot3Jdbc {
        static final String DETAILS = "org.springframework.boot.autoconfigure.jdbc.JdbcConnectionDetails";

        @Bean
        @ConditionalOnBean(type = DETAILS)
        SpringDatabase seatlockSpringDatabase(org.springframework.boot.autoconfigure.jdbc.JdbcConnectionDetails details) {
            return new SpringDatabase(details.getJdbcUrl(), details.getUsername(), details.getPassword());
        }
    }
}
