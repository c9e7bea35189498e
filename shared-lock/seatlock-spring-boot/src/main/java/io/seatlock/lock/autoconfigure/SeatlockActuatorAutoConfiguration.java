package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.DistributedLock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Actuator parts, when the application has Actuator: the {@code seatlock} health indicator (for the
 * lock this library wired, on either store, not for a lock of the application's own) and the {@code locks} endpoint,
 * exposed only when the application includes it.
 */
@AutoConfiguration(after = {SeatlockLockAutoConfiguration.class, SeatlockPostgresLockAutoConfiguration.class,
        SeatlockMySqlLockAutoConfiguration.class,
        SeatlockLeaderAutoConfiguration.class})
@ConditionalOnClass(DistributedLock.class)
public class SeatlockActuatorAutoConfiguration {

    /** Made by Spring Boot, which finds this class in the auto-configuration imports. */
    public SeatlockActuatorAutoConfiguration() {
    }

    /** Spring Boot 4's health indicator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    @org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator("seatlock")
    static class Boot4Health {
        @Bean
        @ConditionalOnBean(ReplicaLocks.class)
        @ConditionalOnMissingBean(name = "seatlockHealthIndicator")
        Boot4SeatlockHealthIndicator seatlockHealthIndicator(ReplicaLocks lock) {
            return new Boot4SeatlockHealthIndicator(lock);
        }
    }

    /** Spring Boot 3.5's health indicator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    @org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator("seatlock")
    static class Boot3Health {
        @Bean
        @ConditionalOnBean(ReplicaLocks.class)
        @ConditionalOnMissingBean(name = "seatlockHealthIndicator")
        Boot3SeatlockHealthIndicator seatlockHealthIndicator(ReplicaLocks lock) {
            return new Boot3SeatlockHealthIndicator(lock);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({Endpoint.class, LeaderElections.class})
    @ConditionalOnAvailableEndpoint(LocksEndpoint.class)
    static class Locks {
        @Bean
        @ConditionalOnMissingBean
        LocksEndpoint locksEndpoint(ObjectProvider<ReplicaLocks> lock, ObjectProvider<LeaderElections> leaders) {
            return new LocksEndpoint(lock.getIfAvailable(), leaders.getIfAvailable());
        }
    }
}
