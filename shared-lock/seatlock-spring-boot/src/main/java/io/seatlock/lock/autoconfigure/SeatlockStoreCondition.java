package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.autoconfigure.SeatlockLockProperties.Store;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

import java.util.List;
import java.util.Locale;

/**
 * Which store the lock uses ({@code seatlock.lock.store}); when unset, Redis where one is configured (a property, or
 * Redis connection details of the application's own: a Testcontainers service connection, say), else the
 * application's database: MySQL or MariaDB where {@code spring.datasource.url} names one and seatlock-mysql and a
 * MySQL or MariaDB driver are on the class path, else PostgreSQL where seatlock-postgres and the PostgreSQL driver
 * are (its auto-configuration then says if the database is another), else MySQL where seatlock-mysql and such a
 * driver are, else Redis (whose auto-configuration then says that no Redis is configured). Decided from properties
 * and the class path alone, so every store's auto-configuration agrees before any bean exists.
 */
abstract class SeatlockStoreCondition extends SpringBootCondition implements ConfigurationCondition {

    private static final List<String> REDIS_LOCATIONS = List.of("seatlock.lock.redis-url", "seatlock.lock.cluster-nodes",
            "seatlock.lock.cluster-nodes[0]", "spring.data.redis.host", "spring.data.redis.url",
            "spring.data.redis.sentinel.nodes", "spring.data.redis.sentinel.nodes[0]", "spring.data.redis.cluster.nodes",
            "spring.data.redis.cluster.nodes[0]");
    static final String POSTGRES_LOCK = "io.seatlock.lock.postgres.PostgresLock";
    static final String POSTGRES_DRIVER = "org.postgresql.PGConnection";
    static final String MYSQL_LOCK = "io.seatlock.lock.mysql.MySqlLock";
    /** MariaDB's driver and MySQL's Connector/J: either serves both servers. */
    static final List<String> MYSQL_DRIVERS = List.of("org.mariadb.jdbc.Driver", "com.mysql.cj.jdbc.Driver");
    /** Spring Data Redis' connection details on Spring Boot 4 and on 3.5. */
    private static final List<String> REDIS_CONNECTION_DETAILS = List.of(
            "org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails",
            "org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails");

    private final Store store;

    SeatlockStoreCondition(Store store) {
        this.store = store;
    }

    /** Decided when beans are registered, as bean conditions are: an application's own Redis details are known then. */
    @Override
    public ConfigurationPhase getConfigurationPhase() {
        return ConfigurationPhase.REGISTER_BEAN;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Store chosen = chosen(context);
        return new ConditionOutcome(chosen == store, "seatlock.lock.store is " + chosen.name().toLowerCase(Locale.ROOT)
                + (context.getEnvironment().containsProperty("seatlock.lock.store") ? "" : " (not set: " + why(chosen) + ")"));
    }

    static Store chosen(ConditionContext context) {
        Environment environment = context.getEnvironment();
        ClassLoader classLoader = context.getClassLoader();
        String set = environment.getProperty("seatlock.lock.store");
        if (set != null && !set.isBlank()) {
            Store asked;
            try {
                asked = Store.valueOf(set.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new InvalidSeatlockConfigurationException("Invalid seatlock.lock.store: '" + set + "'.",
                        "Set seatlock.lock.store to redis, postgres or mysql.", e);
            }
            if (asked == Store.POSTGRES && !postgresPresent(classLoader)) {
                throw new InvalidSeatlockConfigurationException("seatlock.lock.store is postgres, but io.seatlock:"
                        + "seatlock-postgres or the PostgreSQL driver (org.postgresql:postgresql) is not on the class path.",
                        "Add org.postgresql:postgresql (seatlock-spring-boot-starter has seatlock-postgres), or set "
                        + "seatlock.lock.store=redis.", null);
            }
            if (asked == Store.MYSQL && !mySqlPresent(classLoader)) {
                throw new InvalidSeatlockConfigurationException("seatlock.lock.store is mysql, but io.seatlock:"
                        + "seatlock-mysql or a MySQL or MariaDB driver (org.mariadb.jdbc:mariadb-java-client or "
                        + "com.mysql:mysql-connector-j) is not on the class path.", "Add the driver of your database "
                        + "(seatlock-spring-boot-starter has seatlock-mysql), or set seatlock.lock.store=redis.", null);
            }
            return asked;
        }
        if (redisConfigured(environment) || redisConnectionDetailsOfItsOwn(context)) {
            return Store.REDIS;
        }
        String url = environment.getProperty("spring.datasource.url");
        String kind = url == null || url.isBlank() ? "" : SpringDatabase.kindOf(url);
        if (SpringDatabase.MYSQL_KINDS.contains(kind) && mySqlPresent(classLoader)) {
            return Store.MYSQL;
        }
        if (postgresPresent(classLoader)) {
            return Store.POSTGRES;
        }
        return mySqlPresent(classLoader) ? Store.MYSQL : Store.REDIS;
    }

    private static boolean postgresPresent(ClassLoader classLoader) {
        return ClassUtils.isPresent(POSTGRES_LOCK, classLoader) && ClassUtils.isPresent(POSTGRES_DRIVER, classLoader);
    }

    private static boolean mySqlPresent(ClassLoader classLoader) {
        return ClassUtils.isPresent(MYSQL_LOCK, classLoader)
                && MYSQL_DRIVERS.stream().anyMatch(driver -> ClassUtils.isPresent(driver, classLoader));
    }

    private static boolean redisConfigured(Environment environment) {
        return REDIS_LOCATIONS.stream().anyMatch(environment::containsProperty);
    }

    /**
     * Whether the application gives Spring Data Redis connection details of its own (Testcontainers' service
     * connections, a bean of its own, a development run's servers), not Boot's from {@code spring.data.redis.*}
     * (which Boot makes whether or not anything is set).
     */
    private static boolean redisConnectionDetailsOfItsOwn(ConditionContext context) {
        if (context.getBeanFactory() == null) {
            return false;
        }
        for (String detailsType : REDIS_CONNECTION_DETAILS) {
            if (!ClassUtils.isPresent(detailsType, context.getClassLoader())) {
                continue;
            }
            Class<?> details = ClassUtils.resolveClassName(detailsType, context.getClassLoader());
            for (String name : context.getBeanFactory().getBeanNamesForType(details, true, false)) {
                Class<?> type = context.getBeanFactory().getType(name, false);
                if (type == null || !SpringRedisEndpoints.FROM_PROPERTIES.contains(type.getSimpleName())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String why(Store chosen) {
        return switch (chosen) {
            case POSTGRES -> "no Redis is configured, and seatlock-postgres and the PostgreSQL driver are on the class "
                    + "path";
            case MYSQL -> "no Redis is configured, and seatlock-mysql and a MySQL or MariaDB driver are on the class "
                    + "path";
            case REDIS -> "a Redis is configured, or no database lock and driver are on the class path";
        };
    }

    /** The Redis lock is the store. */
    static final class OnRedis extends SeatlockStoreCondition {
        OnRedis() {
            super(Store.REDIS);
        }
    }

    /** The PostgreSQL lock is the store. */
    static final class OnPostgres extends SeatlockStoreCondition {
        OnPostgres() {
            super(Store.POSTGRES);
        }
    }

    /** The MySQL/MariaDB lock is the store. */
    static final class OnMySql extends SeatlockStoreCondition {
        OnMySql() {
            super(Store.MYSQL);
        }
    }
}
