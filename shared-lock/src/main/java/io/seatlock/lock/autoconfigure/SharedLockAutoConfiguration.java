package io.seatlock.lock.autoconfigure;

import io.lettuce.core.RedisURI;
import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.lock.DistributedLock;
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
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import java.util.List;

/**
 * Wires the shared lock from {@code seatlock.lock.*}, reusing Spring's Redis connection settings. Each bean
 * backs off when the application defines its own of the same kind ({@link DistributedLock}, {@code PostgresFence},
 * ShedLock's {@code LockProvider}, the metrics listener).
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass(RedisURI.class)
@ConditionalOnBooleanProperty(name = "seatlock.lock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SharedLockProperties.class)
public class SharedLockAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(DistributedLock.class)
    RedisLockClient distributedLock(SharedLockProperties properties,
                                    ObjectProvider<DataRedisConnectionDetails> springRedis,
                                    ObjectProvider<DataRedisProperties> springRedisProperties,
                                    ObjectProvider<LockListener> listeners, Environment environment) {
        RedisLockSettings defaults = RedisLockSettings.defaults();
        RedisLockSettings settings = new RedisLockSettings(properties.keyPrefix(),
                properties.instanceId() != null ? properties.instanceId() : defaults.instanceId(),
                properties.clockDriftFactor(), properties.minSafetyMargin(), properties.minBackoff(),
                properties.maxBackoff());
        LockListener listener = LockListener.composite(listeners.orderedStream().toList());
        RedisEndpoints endpoints = endpoints(properties, springRedis.getIfAvailable(),
                springRedisProperties.getIfAvailable(), environment);
        return endpoints.cluster()
                ? RedisLockClient.cluster(endpoints.nodes(), properties.commandTimeout(), endpoints.ssl(), settings, listener)
                : RedisLockClient.standalone(endpoints.nodes().get(0), properties.commandTimeout(), endpoints.ssl(),
                        settings, listener);
    }

    private static RedisEndpoints endpoints(SharedLockProperties properties, DataRedisConnectionDetails spring,
                                            DataRedisProperties springProperties, Environment environment) {
        if (!properties.clusterNodes().isEmpty()) {
            return RedisEndpoints.clusterOf(properties.clusterNodes());
        }
        if (properties.redisUrl() != null) {
            return RedisEndpoints.of(properties.redisUrl());
        }
        if (spring == null || (isFromProperties(spring) && SPRING_REDIS_LOCATIONS.stream().noneMatch(environment::containsProperty))) {
            // Spring would default to localhost:6379: each replica would lock on a Redis of its own, which is no lock.
            throw new IllegalStateException("No Redis is configured for the shared lock. Set spring.data.redis.host "
                    + "(or spring.data.redis.url, .sentinel.nodes, .cluster.nodes, or seatlock.lock.redis-url) to the "
                    + "Redis every replica shares; the lock does not fall back to localhost.");
        }
        String url = springProperties == null ? null : springProperties.getUrl();
        return RedisEndpoints.fromSpring(spring, url != null && url.regionMatches(true, 0, "rediss:", 0, 7));
    }

    private static final List<String> SPRING_REDIS_LOCATIONS = List.of("spring.data.redis.host",
            "spring.data.redis.url", "spring.data.redis.sentinel.nodes", "spring.data.redis.cluster.nodes");

    /** Boot's own details read from {@code spring.data.redis.*}; any other kind (Testcontainers, a user's) is explicit. */
    private static boolean isFromProperties(DataRedisConnectionDetails details) {
        return details.getClass().getSimpleName().equals("PropertiesDataRedisConnectionDetails");
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
    @ConditionalOnClass(LockProvider.class)
    @ConditionalOnBooleanProperty(name = "seatlock.lock.shedlock", matchIfMissing = true)
    static class ShedLock {
        @Bean
        @ConditionalOnMissingBean(LockProvider.class)
        SeatlockLockProvider seatlockLockProvider(DistributedLock lock) {
            return new SeatlockLockProvider(lock);
        }
    }
}
