package io.seatlock.lock.autoconfigure;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.lock.LockUnavailableException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.ClassUtils;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The small pool of its own a lock on the application's database gets, so that a busy application pool cannot stall
 * the lock and no migration waits for a connection the lock holds; closed after the lock.
 */
final class StorePool implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StorePool.class);
    private static final String HIKARI = "com.zaxxer.hikari.HikariDataSource";
    /** The databases a lock of seatlock's runs on, by the kind {@link SpringDatabase#kindOf} gives. */
    static final Set<String> SUPPORTED = Set.of(SpringDatabase.POSTGRESQL, SpringDatabase.MYSQL, SpringDatabase.MARIADB);
    static final String SUPPORTED_NAMES = "PostgreSQL, MySQL or MariaDB";

    final HikariDataSource pool;

    private StorePool(HikariDataSource pool) {
        this.pool = pool;
    }

    /**
     * A pool on the application's database for the store named {@code store}, after checking that there is a
     * database, that it is one of {@code kinds}, and that HikariCP is there.
     *
     * @param details     the application's database, or null when it has none
     * @param asked       whether seatlock.lock.store named the store (else it was chosen for want of a Redis)
     * @param store       the store's name in messages, e.g. {@code PostgreSQL}
     * @param kinds       the database kinds this store runs on
     * @param size        connections
     * @param callTimeout the lock's call bound: the pool's wait for a connection, and its connect timeout
     * @param driver      the driver's own settings
     */
    static StorePool on(@Nullable SpringDatabase details, boolean asked, String store, Set<String> kinds, int size,
                        Duration callTimeout, Map<String, Object> driver) {
        if (details == null) {
            String description = !asked
                    ? "No store is configured for the seatlock lock: no Redis (seatlock.lock.redis-url, "
                    + "seatlock.lock.cluster-nodes or spring.data.redis.*) and no database (spring.datasource.url); it "
                    + "does not fall back to localhost, where each replica would lock on a store of its own."
                    : "seatlock.lock.store asks for " + store + ", but the application has no database configured "
                    + "(spring.datasource.url).";
            throw new InvalidSeatlockConfigurationException(description, "Set seatlock.lock.redis-url (or "
                    + "spring.data.redis.host) to the Redis every replica shares, or spring.datasource.url to the "
                    + SUPPORTED_NAMES + " database they share (with spring-boot-starter-jdbc); or set "
                    + "seatlock.lock.enabled=false and define a DistributedLock bean of your own.", null);
        }
        String kind = SpringDatabase.kindOf(details.jdbcUrl());
        if (!kinds.contains(kind)) {
            throw new InvalidSeatlockConfigurationException("The seatlock lock's store is " + store + ", but the "
                    + "application's database (spring.datasource.url) is " + kind + "; the lock runs on Redis or on "
                    + SUPPORTED_NAMES + ".", "Set seatlock.lock.redis-url (or spring.data.redis.host) to the Redis "
                    + "every replica shares, or spring.datasource.url to a " + SUPPORTED_NAMES + " database; or set "
                    + "seatlock.lock.enabled=false and define a DistributedLock bean of your own.", null);
        }
        if (!ClassUtils.isPresent(HIKARI, StorePool.class.getClassLoader())) {
            throw new InvalidSeatlockConfigurationException("The seatlock lock on " + store + " needs a pool of its "
                    + "own, made with HikariCP (com.zaxxer:HikariCP), which is not on the class path.",
                    "Add spring-boot-starter-jdbc (it has HikariCP), or define a DistributedLock bean of your own.", null);
        }
        HikariConfig config = new HikariConfig();
        config.setPoolName("seatlock-lock");
        config.setJdbcUrl(details.jdbcUrl());
        config.setUsername(details.username());
        config.setPassword(details.password());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(Math.max(250, callTimeout.toMillis())); // HikariCP's least; the call bound counts too
        config.setValidationTimeout(Math.max(250, callTimeout.toMillis()));
        config.setInitializationFailTimeout(-1); // a database that does not answer yet is a cold start, not a failure
        driver.forEach(config::addDataSourceProperty);
        return new StorePool(new HikariDataSource(config));
    }

    /**
     * Creates the lock's table (or checks that it is there) before the lock is handed to any bean, so the migration
     * gate finds it, and logs which store and database the lock is on. A database that does not answer yet is logged
     * and the application starts (lock calls then fail fast until it answers); one that refuses the table (no right
     * to create it, or it is missing) stops start-up with a report.
     *
     * @param lock        the lock, closed when start-up stops
     * @param prepare     creates the table, or checks that it is there
     * @param store       the store's name, e.g. {@code PostgreSQL}
     * @param shape       the table and pool, for the log line
     * @param denied      whether the database refused for want of a right
     * @param what        what cannot be used, e.g. {@code The seatlock lock's table t}
     * @param action      what to do about it
     * @param callTimeout the lock's call bound, for the log line
     */
    void ready(AutoCloseable lock, Runnable prepare, String store, String shape, Predicate<SQLException> denied,
               String what, String action, Duration callTimeout) {
        long start = System.nanoTime();
        try {
            prepare.run();
            log.info("seatlock lock on {} ({}) ready in {} ms; no Redis is configured, or seatlock.lock.store names "
                    + "it", store, shape, Duration.ofNanos(System.nanoTime() - start).toMillis());
        } catch (LockUnavailableException e) {
            if (e.getCause() instanceof SQLException sql && denied.test(sql) || e.getMessage().contains("does not exist")) {
                try {
                    lock.close();
                } catch (Exception closing) {
                    e.addSuppressed(closing);
                }
                throw new InvalidSeatlockConfigurationException(what + " cannot be used: " + e.getMessage(), action, e);
            }
            log.warn("seatlock lock: {} did not answer while the application started: {}. The application starts; "
                    + "lock calls fail with LockUnavailableException until it answers (each within {})", store,
                    e.getMessage(), callTimeout);
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
