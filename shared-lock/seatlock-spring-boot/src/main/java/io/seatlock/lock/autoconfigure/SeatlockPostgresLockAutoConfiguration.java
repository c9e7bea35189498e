package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.postgres.PostgresLeaseFence;
import io.seatlock.lock.postgres.PostgresLock;
import io.seatlock.lock.postgres.PostgresLockSettings;
import io.seatlock.lock.spi.LockListeners;
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
import java.util.Set;

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
@Import(SpringDatabases.class)
public class SeatlockPostgresLockAutoConfiguration {

    /** Made by Spring Boot, which finds this class in the auto-configuration imports. */
    public SeatlockPostgresLockAutoConfiguration() {
    }

    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    private static final String FIX_THE_VALUE = "Correct the property; docs/spring-boot.md lists each seatlock property "
            + "with its default and range.";

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(DistributedLock.class)
    StorePool seatlockLockPool(SeatlockLockProperties properties, ObjectProvider<SpringDatabase> jdbc) {
        SeatlockLockProperties.Postgres postgres = properties.postgres();
        Duration callTimeout = checked("seatlock.lock.postgres.call-timeout", FIX_THE_VALUE,
                () -> PostgresLockSettings.defaults().withCallTimeout(postgres.callTimeout()).callTimeout());
        if (postgres.poolSize() < 2) {
            throw new InvalidSeatlockConfigurationException("Invalid seatlock.lock.postgres.pool-size: "
                    + postgres.poolSize() + "; the lock needs one connection for its release listener and at least one "
                    + "for its calls.", "Set seatlock.lock.postgres.pool-size to 2 or more (default 10).", null);
        }
        return StorePool.on(jdbc.getIfAvailable(), properties.store() != null, "PostgreSQL",
                Set.of(SpringDatabase.POSTGRESQL), postgres.poolSize(), callTimeout, Map.of("connectTimeout",
                        Math.max(1, (int) Math.ceil(callTimeout.toMillis() / 1000.0)), "tcpKeepAlive", true));
    }

    /**
     * The lock, with its table created (unless {@code seatlock.lock.postgres.create-table=false}) before it is handed
     * to any bean, so the migration gate finds the table. A database that does not answer yet is logged and the
     * application starts; lock calls then fail fast until it answers. A database that refuses to create the table
     * (no right to) stops start-up.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnBean(StorePool.class)
    PostgresLock distributedLock(StorePool pool, SeatlockLockProperties properties,
                                 ObjectProvider<LockListener> listeners) {
        SeatlockLockProperties.Postgres postgres = properties.postgres();
        PostgresLockSettings settings = checked("seatlock.lock", FIX_THE_VALUE, 
                () -> PostgresLockSettings.defaults().withTable(postgres.table())
                        .withInstanceId(properties.instanceIdOrDefault()).withCallTimeout(postgres.callTimeout())
                        .withTiming(properties.timing()));
        PostgresLock lock = PostgresLock.over(pool.pool, settings,
                LockListeners.guarded(listeners.orderedStream().toList()));
        pool.ready(lock, postgres.createTable() ? lock::createTable : () -> lock.remainingTtl("seatlock-startup-check"),
                "PostgreSQL", "table " + settings.table() + ", pool of " + postgres.poolSize(),
                e -> INSUFFICIENT_PRIVILEGE.equals(e.getSQLState()), "The seatlock lock's table " + settings.table(),
                "Run " + PostgresLock.DDL_RESOURCE + " (in io.seatlock:seatlock-postgres) as an owner of the database, "
                        + "or let the lock create it (seatlock.lock.postgres.create-table=true) as a user allowed to.",
                postgres.callTimeout());
        return lock;
    }

    @Bean
    @ConditionalOnBean(PostgresLock.class)
    ReplicaLocks seatlockReplicaLocks(PostgresLock lock) {
        return new ReplicaLocks(lock, lock::ping, lock.settings().instanceId(), lock::heldLeases,
                Map.of("store", "postgres", "database", SpringDatabase.POSTGRESQL, "table", lock.settings().table()));
    }

    /** Writes fenced by the lease itself: a paused holder is refused even before a newer one writes. */
    @Bean
    @ConditionalOnBean(PostgresLock.class)
    @ConditionalOnMissingBean(Fence.class)
    PostgresLeaseFence postgresLeaseFence(PostgresLock lock, ObjectProvider<LockListener> listeners) {
        return new PostgresLeaseFence(lock.settings(), LockListeners.guarded(listeners.orderedStream().toList()));
    }
}
