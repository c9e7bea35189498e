package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.Fence;
import io.seatlock.lock.LockListener;
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

import javax.sql.DataSource;

/**
 * The storage side, when the application's database is PostgreSQL: the PostgreSQL {@link Fence}, and once-per-slot
 * jobs ({@link JobSlots} on the application's {@link JdbcTemplate}, and a scheduler wrapper that lets
 * each cron run know its own fire time). On another database ({@code spring.datasource.url} says which) none of them
 * is registered: their SQL is PostgreSQL's.
 */
@AutoConfiguration(after = {SeatlockLockAutoConfiguration.class, SeatlockPostgresLockAutoConfiguration.class},
        afterName = {"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
                "org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration",
                "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
                "org.springframework.boot.autoconfigure.jdbc.JdbcTemplateAutoConfiguration"})
@ConditionalOnClass(PostgresFence.class)
@ConditionalOnBean(DataSource.class)
@Conditional(SeatlockJdbcAutoConfiguration.OnPostgresDatabase.class)
@EnableConfigurationProperties(SeatlockLockProperties.class)
public class SeatlockJdbcAutoConfiguration {

    /** Made by Spring Boot, which finds this class in the auto-configuration imports. */
    public SeatlockJdbcAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(Fence.class)
    PostgresFence postgresFence(ObjectProvider<LockListener> listeners) {
        return new PostgresFence(LockListeners.guarded(listeners.orderedStream().toList()));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({JdbcTemplate.class, JobSlots.class})
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
     * The application's database is PostgreSQL, as {@code spring.datasource.url} says (Testcontainers' and other
     * wrappers' URLs included). Without that property the application made its DataSource itself, and is taken at its
     * word that it is PostgreSQL.
     */
    static final class OnPostgresDatabase extends SpringBootCondition {
        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String url = context.getEnvironment().getProperty("spring.datasource.url");
            if (url == null || url.isBlank()) {
                return ConditionOutcome.match("no spring.datasource.url: the application's own DataSource");
            }
            String kind = SpringDatabase.kindOf(url);
            if (kind.equals(SpringDatabase.POSTGRESQL)) {
                return ConditionOutcome.match("spring.datasource.url is a PostgreSQL database");
            }
            return ConditionOutcome.noMatch("spring.datasource.url is " + kind + ", not PostgreSQL: seatlock's fence "
                    + "and job slots run on PostgreSQL");
        }
    }
}
