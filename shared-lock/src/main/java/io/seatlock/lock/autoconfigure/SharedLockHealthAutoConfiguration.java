package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisLockClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/** The {@code seatlock} health indicator, for the Redis lock this library wired (not for a user's own lock). */
@AutoConfiguration(after = SharedLockAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(RedisLockClient.class)
@ConditionalOnEnabledHealthIndicator("seatlock")
public class SharedLockHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "seatlockHealthIndicator")
    SharedLockHealthIndicator seatlockHealthIndicator(RedisLockClient lock) {
        return new SharedLockHealthIndicator(lock);
    }
}
