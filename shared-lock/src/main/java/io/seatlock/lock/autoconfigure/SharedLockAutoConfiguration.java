package io.seatlock.lock.autoconfigure;

import io.lettuce.core.RedisURI;
import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.fencing.PostgresFence;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.shedlock.SeatlockLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;

/** Wires the shared lock from {@code seatlock.lock.*}, reusing Spring's Redis connection settings. */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass(RedisURI.class)
@ConditionalOnBooleanProperty(name = "seatlock.lock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SharedLockProperties.class)
public class SharedLockAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    RedisLockClient distributedLock(SharedLockProperties properties,
                                    ObjectProvider<DataRedisConnectionDetails> springRedis,
                                    ObjectProvider<LockListener> listeners) {
        RedisLockSettings defaults = RedisLockSettings.defaults();
        RedisLockSettings settings = new RedisLockSettings(properties.keyPrefix(),
                properties.instanceId() != null ? properties.instanceId() : defaults.instanceId(),
                properties.clockDriftFactor(), properties.minSafetyMargin(), properties.minBackoff(),
                properties.maxBackoff());
        LockListener listener = LockListener.composite(listeners.orderedStream().toList());
        if (!properties.clusterNodes().isEmpty()) {
            List<RedisURI> seeds = properties.clusterNodes().stream().map(RedisEndpoints::node).toList();
            return RedisLockClient.cluster(seeds, properties.commandTimeout(), settings, listener);
        }
        RedisURI uri = properties.redisUrl() != null
                ? RedisURI.create(properties.redisUrl())
                : RedisEndpoints.fromSpring(springRedis.getIfAvailable());
        return RedisLockClient.standalone(uri, properties.commandTimeout(), settings, listener);
    }

    @Bean
    @ConditionalOnMissingBean
    PostgresFence postgresFence(ObjectProvider<LockListener> listeners) {
        return new PostgresFence(LockListener.composite(listeners.orderedStream().toList()));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static class Metrics {
        @Bean
        @ConditionalOnMissingBean
        MicrometerLockListener micrometerLockListener(ObjectProvider<MeterRegistry> registry) {
            return new MicrometerLockListener(registry.getIfAvailable(
                    io.micrometer.core.instrument.simple.SimpleMeterRegistry::new));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("seatlock")
    static class Health {
        @Bean
        @ConditionalOnMissingBean
        SharedLockHealthIndicator seatlockHealthIndicator(RedisLockClient lock) {
            return new SharedLockHealthIndicator(lock);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(LockProvider.class)
    @ConditionalOnBooleanProperty(name = "seatlock.lock.shedlock", matchIfMissing = true)
    static class ShedLock {
        @Bean
        @ConditionalOnMissingBean(LockProvider.class)
        SeatlockLockProvider seatlockLockProvider(RedisLockClient lock) {
            return new SeatlockLockProvider(lock);
        }
    }
}
