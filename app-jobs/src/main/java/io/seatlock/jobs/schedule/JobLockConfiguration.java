package io.seatlock.jobs.schedule;

import io.seatlock.jobs.JobsProperties;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.shedlock.SeatlockLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The ShedLock provider the jobs run under, as {@code jobs.lock-provider} says: seatlock's (owner-checked
 * unlock and extend, always; the default) or ShedLock's stock Redis provider.
 */
@Configuration(proxyBeanMethods = false)
class JobLockConfiguration {

    @Bean
    LockProvider jobLockProvider(JobsProperties properties, DistributedLock lock, RedisConnectionFactory redis) {
        return switch (properties.lockProvider()) {
            case SEATLOCK -> new SeatlockLockProvider(lock);
            // safeUpdate: owner-checked unlock and extend; ShedLock's default is a blind DEL.
            case SHEDLOCK_REDIS -> new RedisLockProvider.Builder(redis).environment("jobs").safeUpdate(true).build();
        };
    }
}
