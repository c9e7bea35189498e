package io.seatlock.jobs.schedule;

import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The seatlock ShedLock provider is the default (from seatlock's auto-configuration);
 * {@code jobs.lock-provider=shedlock-redis} selects ShedLock's stock Redis provider instead.
 */
@Configuration(proxyBeanMethods = false)
class JobLockConfiguration {

    @Bean
    @ConditionalOnProperty(name = "jobs.lock-provider", havingValue = "shedlock-redis")
    LockProvider stockRedisLockProvider(RedisConnectionFactory redis) {
        // safeUpdate: owner-checked unlock and extend; ShedLock's default is a blind DEL.
        return new RedisLockProvider.Builder(redis).environment("jobs").safeUpdate(true).build();
    }
}
