package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.redis.RedisLockClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Actuator parts: the {@code seatlock} health indicator (for the Redis lock this library wired, not for a
 * user's own lock) and the {@code locks} endpoint, exposed only when the application includes it.
 */
@AutoConfiguration(after = {SharedLockAutoConfiguration.class, LeaderAutoConfiguration.class})
public class SharedLockActuatorAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("seatlock")
    static class Health {
        @Bean
        @ConditionalOnBean(RedisLockClient.class)
        @ConditionalOnMissingBean(name = "seatlockHealthIndicator")
        SharedLockHealthIndicator seatlockHealthIndicator(RedisLockClient lock) {
            return new SharedLockHealthIndicator(lock);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Endpoint.class)
    @ConditionalOnAvailableEndpoint(LocksEndpoint.class)
    static class Locks {
        @Bean
        @ConditionalOnMissingBean
        LocksEndpoint locksEndpoint(ObjectProvider<RedisLockClient> lock, ObjectProvider<LeaderElections> leaders) {
            return new LocksEndpoint(lock.getIfAvailable(), leaders.getIfAvailable());
        }
    }
}
