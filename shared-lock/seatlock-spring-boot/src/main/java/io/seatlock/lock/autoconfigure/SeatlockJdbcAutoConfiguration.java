package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.Fence;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.fencing.MySqlFence;
import io.seatlock.lock.fencing.PostgresFence;
import io.seatlock.lock.slots.JobSlots;
import io.seatlock.lock.spi.LockListeners;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.util.ClassUtils;

import javax.sql.DataSource;
import java.util.Set;

/**
 * The storage side, when the application's database is PostgreSQL, MySQL or MariaDB: the token {@link Fence} of that
 * database ({@link PostgresFence}, {@link MySqlFence}; the lease fence of a lock on the same database comes first),
 * and once-per-slot jobs ({@link JobSlots} on the application's {@link JdbcTemplate}, and a scheduler wrapper that
 * lets each cron run know its own fire time). On another database ({@code spring.datasource.url} says which) none of
 * them is registered, and the conditions report says why: their SQL is those databases'.
 */
@AutoConfiguration(after = {SeatlockLockAutoConfiguration.class, SeatlockPostgresLockAutoConfiguration.class,
        SeatlockMySqlLockAutoConfiguration.class},
        afterName = {"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
                "org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration",
                "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
                "org.springframework.boot.autoconfigure.jdbc.JdbcTemplateAutoConfiguration"})
@ConditionalOnClass(PostgresFence.class)
@ConditionalOnBean(DataSource.class)
@EnableConfigurationProperties(SeatlockLockProperties.class)
public class SeatlockJdbcAutoConfiguration {

    /** Made by Spring Boot, which finds this class in the auto-configuration imports. */
    public SeatlockJdbcAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(Fence.class)
    @Conditional(OnMySqlDatabase.class)
    MySqlFence mySqlFence(ObjectProvider<LockListener> listeners) {
        return new MySqlFence(LockListeners.guarded(listeners.orderedStream().toList()));
    }

    @Bean
    @ConditionalOnMissingBean(Fence.class)
    @Conditional(OnPostgresDatabase.class)
    PostgresFence postgresFence(ObjectProvider<LockListener> listeners) {
        return new PostgresFence(LockListeners.guarded(listeners.orderedStream().toList()));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({JdbcTemplate.class, JobSlots.class})
    @Conditional(OnSupportedDatabase.class)
    @ConditionalOnBooleanProperty(name = "seatlock.slots.enabled", matchIfMissing = true)
    @EnableConfigurationProperties(SeatlockSlotsProperties.class)
    static class Slots {
        @Bean
        @ConditionalOnBean(JdbcTemplate.class)
        @ConditionalOnMissingBean
        JobSlots jobSlots(JdbcTemplate jdbc, SeatlockLockProperties lock) {
            // The runner is the lock's instance id: one name per process, in owner tokens and slot records alike.
            return new JobSlots(jdbc, lock.instanceIdOrDefault());
        }

        @Bean
        SchedulingConfigurer slotRecordingScheduling(ObjectProvider<TaskScheduler> scheduler) {
            return registrar -> {
                TaskScheduler base = registrar.getScheduler() != null ? registrar.getScheduler() : scheduler.getIfUnique();
                if (base != null && !(base instanceof SlotRecordingTaskScheduler)) {
                    registrar.setTaskScheduler(new SlotRecordingTaskScheduler(base));
                }
            };
        }
    }

    /**
     * The application's database is one of {@code kinds}, as {@code spring.datasource.url} says (Testcontainers' and
     * other wrappers' URLs included). Without that property the application made its DataSource itself, and is taken
     * at its word that it is PostgreSQL, or MySQL where only a MySQL or MariaDB driver is there.
     */
    abstract static class OnDatabase extends SpringBootCondition {
        private final Set<String> kinds;
        private final String what;

        OnDatabase(Set<String> kinds, String what) {
            this.kinds = kinds;
            this.what = what;
        }

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String kind = kind(context);
            return kinds.contains(kind) ? ConditionOutcome.match("the application's database is " + kind)
                    : ConditionOutcome.noMatch("spring.datasource.url is " + kind + ": " + what);
        }
    }

    /** Job slots: on PostgreSQL, MySQL or MariaDB. */
    static final class OnSupportedDatabase extends OnDatabase {
        OnSupportedDatabase() {
            super(StorePool.SUPPORTED, "seatlock's job slots run on " + StorePool.SUPPORTED_NAMES);
        }
    }

    /** {@link PostgresFence}: on PostgreSQL. */
    static final class OnPostgresDatabase extends OnDatabase {
        OnPostgresDatabase() {
            super(Set.of(SpringDatabase.POSTGRESQL), "PostgresFence runs on PostgreSQL");
        }
    }

    /** {@link MySqlFence}: on MySQL or MariaDB. */
    static final class OnMySqlDatabase extends OnDatabase {
        OnMySqlDatabase() {
            super(SpringDatabase.MYSQL_KINDS, "MySqlFence runs on MySQL or MariaDB");
        }
    }

    /** The database {@code spring.datasource.url} names, or, without one, what the drivers present suggest. */
    private static String kind(ConditionContext context) {
        String url = context.getEnvironment().getProperty("spring.datasource.url");
        if (url != null && !url.isBlank()) {
            return SpringDatabase.kindOf(url);
        }
        boolean mySqlOnly = !ClassUtils.isPresent(SeatlockStoreCondition.POSTGRES_DRIVER, context.getClassLoader())
                && SeatlockStoreCondition.MYSQL_DRIVERS.stream()
                .anyMatch(driver -> ClassUtils.isPresent(driver, context.getClassLoader()));
        return mySqlOnly ? SpringDatabase.MYSQL : SpringDatabase.POSTGRESQL;
    }
}
