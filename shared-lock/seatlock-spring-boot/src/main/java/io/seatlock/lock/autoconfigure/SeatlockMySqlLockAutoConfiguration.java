package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.mysql.MySqlLeaseFence;
import io.seatlock.lock.mysql.MySqlLock;
import io.seatlock.lock.mysql.MySqlLockSettings;
import io.seatlock.lock.spi.LockListeners;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;

import java.time.Duration;
import java.util.Map;

import static io.seatlock.lock.autoconfigure.InvalidSeatlockConfigurationException.checked;

/**
 * The MySQL/MariaDB lock, when MySQL is the store ({@link SeatlockStoreCondition}): on the application's own database
 * ({@code spring.datasource.*}, or any {@code JdbcConnectionDetails}) through a small HikariCP pool of its own
 * ({@code seatlock.lock.mysql.*}), with the lease table created before any bean gets the lock, and the lease fence as
 * the application's {@link Fence}. Backs off when the application defines its own {@link DistributedLock}.
 */
@AutoConfiguration(afterName = {"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration"})
@ConditionalOnClass(MySqlLock.class)
@ConditionalOnBooleanProperty(name = "seatlock.lock.enabled", matchIfMissing = true)
@Conditional(SeatlockStoreCondition.OnMySql.class)
@EnableConfigurationProperties(SeatlockLockProperties.class)
@Import(SpringDatabases.class)
public class SeatlockMySqlLockAutoConfiguration {

    /** Made by Spring Boot, which finds this class in the auto-configuration imports. */
    public SeatlockMySqlLockAutoConfiguration() {
    }

    /** SQLSTATE of MySQL's and MariaDB's refusals for want of a right (1142 and kin). */
    private static final String ACCESS_DENIED = "42000";
    private static final String FIX_THE_VALUE = "Correct the property; docs/spring-boot.md lists each seatlock property "
            + "with its default and range.";

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(DistributedLock.class)
    StorePool seatlockLockPool(SeatlockLockProperties properties, ObjectProvider<SpringDatabase> jdbc) {
        SeatlockLockProperties.Mysql mysql = properties.mysql();
        Duration callTimeout = checked("seatlock.lock.mysql.call-timeout", FIX_THE_VALUE,
                () -> MySqlLockSettings.defaults().withCallTimeout(mysql.callTimeout()).callTimeout());
        if (mysql.poolSize() < 1) {
            throw new InvalidSeatlockConfigurationException("Invalid seatlock.lock.mysql.pool-size: "
                    + mysql.poolSize() + "; the lock needs at least one connection for its calls.",
                    "Set seatlock.lock.mysql.pool-size to 1 or more (default 10).", null);
        }
        return StorePool.on(jdbc.getIfAvailable(), properties.store() != null, "MySQL",
                SpringDatabase.MYSQL_KINDS, mysql.poolSize(), callTimeout,
                Map.of("connectTimeout", (int) Math.max(1_000, callTimeout.toMillis()), "tcpKeepAlive", true));
    }

    /**
     * The lock, with its table created (unless {@code seatlock.lock.mysql.create-table=false}) before it is handed to
     * any bean, so the migration gate finds the table. A database that does not answer yet is logged and the
     * application starts; lock calls then fail fast until it answers. A database that refuses to create the table (no
     * right to) stops start-up.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnBean(StorePool.class)
    MySqlLock distributedLock(StorePool pool, SeatlockLockProperties properties,
                              ObjectProvider<LockListener> listeners, ObjectProvider<SpringDatabase> jdbc) {
        SeatlockLockProperties.Mysql mysql = properties.mysql();
        MySqlLockSettings settings = checked("seatlock.lock", FIX_THE_VALUE,
                () -> MySqlLockSettings.defaults().withTable(mysql.table())
                        .withInstanceId(properties.instanceIdOrDefault()).withCallTimeout(mysql.callTimeout())
                        .withTiming(properties.timing()));
        MySqlLock lock = MySqlLock.over(pool.pool, settings, LockListeners.guarded(listeners.orderedStream().toList()));
        pool.ready(lock, mysql.createTable() ? lock::createTable : () -> lock.remainingTtl("seatlock-startup-check"),
                "MySQL", "table " + settings.table() + ", pool of " + mysql.poolSize() + ", database "
                        + kindOf(jdbc.getIfAvailable()),
                e -> ACCESS_DENIED.equals(e.getSQLState()), "The seatlock lock's table " + settings.table(),
                "Run " + MySqlLock.DDL_RESOURCE + " (in io.seatlock:seatlock-mysql) as an administrator of the "
                        + "database, or let the lock create it (seatlock.lock.mysql.create-table=true) as a user "
                        + "allowed to create tables and triggers.", mysql.callTimeout());
        return lock;
    }

    @Bean
    @ConditionalOnBean(MySqlLock.class)
    ReplicaLocks seatlockReplicaLocks(MySqlLock lock, ObjectProvider<SpringDatabase> jdbc) {
        return new ReplicaLocks(lock, lock::ping, lock.settings().instanceId(), lock::heldLeases,
                Map.of("store", "mysql", "database", kindOf(jdbc.getIfAvailable()), "table", lock.settings().table()));
    }

    /** {@code mysql} or {@code mariadb}, as the application's URL names it (a DataSource of its own: mysql). */
    private static String kindOf(@Nullable SpringDatabase database) {
        return database == null ? SpringDatabase.MYSQL : SpringDatabase.kindOf(database.jdbcUrl());
    }

    /** Writes fenced by the lease itself: a paused holder is refused even before a newer one writes. */
    @Bean
    @ConditionalOnBean(MySqlLock.class)
    @ConditionalOnMissingBean(Fence.class)
    MySqlLeaseFence mySqlLeaseFence(MySqlLock lock, ObjectProvider<LockListener> listeners) {
        return new MySqlLeaseFence(lock.settings(), LockListeners.guarded(listeners.orderedStream().toList()));
    }
}
