package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.slots.JobSlots;
import io.seatlock.lock.slots.SlotRecordingTaskScheduler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.SchedulingConfigurer;

/**
 * Once-per-slot jobs: {@link JobSlots} on the app's {@link JdbcTemplate}, and a scheduler wrapper that
 * lets each cron run know its own fire time ({@code seatlock.jobs.enabled=false} switches both off).
 */
@AutoConfiguration(after = {SharedLockAutoConfiguration.class, JdbcTemplateAutoConfiguration.class})
@ConditionalOnClass(JdbcTemplate.class)
@ConditionalOnBooleanProperty(name = "seatlock.jobs.enabled", matchIfMissing = true)
public class JobSlotsAutoConfiguration {

    @Bean
    @ConditionalOnBean(JdbcTemplate.class)
    @ConditionalOnMissingBean
    JobSlots jobSlots(JdbcTemplate jdbc, ObjectProvider<DistributedLock> lock) {
        // The runner is the lock's instance id: one name per process, in owner tokens and slot records alike.
        String runner = lock.getIfAvailable() instanceof RedisLockClient redis ? redis.settings().instanceId()
                : RedisLockSettings.defaults().instanceId();
        return new JobSlots(jdbc, runner);
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
