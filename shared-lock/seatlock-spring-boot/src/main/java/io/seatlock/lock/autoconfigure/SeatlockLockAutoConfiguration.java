package io.seatlock.lock.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.autoconfigure.SeatlockLockProperties.ClientType;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.redis.spi.RedisTransport;
import io.seatlock.lock.spi.LockListeners;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

import java.util.Locale;

/**
 * The Redis lock from {@code seatlock.lock.*}: on {@code seatlock.lock.redis-url} or
 * {@code cluster-nodes} when set, else on the application's own {@code spring.data.redis.*} connection
 * (when Spring Data Redis is on the class path); carried by Lettuce or Jedis ({@code seatlock.lock.client-type}).
 * Backs off when the application defines its own {@link DistributedLock}; Micrometer metrics when Micrometer is on
 * the class path.
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass(RedisLockClient.class)
@ConditionalOnBooleanProperty(name = "seatlock.lock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SeatlockLockProperties.class)
public class SeatlockLockAutoConfiguration {

    private static final String LETTUCE = "io.lettuce.core.RedisClient";
    private static final String JEDIS = "io.seatlock.lock.redis.jedis.JedisTransport";

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(DistributedLock.class)
    RedisLockClient distributedLock(SeatlockLockProperties properties, ObjectProvider<SpringRedisEndpoints> springRedis,
                                    ObjectProvider<LockListener> listeners, Environment environment,
                                    ResourceLoader resources) {
        RedisLockSettings settings = settingsOf(properties);
        // whatever the topology: bad input is told (the command timeout is checked by every transport factory)
        RedisTransport.requirePositiveRefresh(properties.clusterRefresh());
        LockListener listener = LockListeners.guarded(listeners.orderedStream().toList());
        RedisEndpoints endpoints = endpoints(properties, springRedis.getIfAvailable());
        return switch (clientType(properties, environment, resources.getClassLoader())) {
            case LETTUCE -> LettuceLocks.create(endpoints, properties.commandTimeout(), properties.clusterRefresh(), settings,
                    listener);
            case JEDIS -> JedisLocks.create(endpoints, properties.commandTimeout(), properties.clusterRefresh(), settings,
                    listener);
        };
    }

    /**
     * {@code seatlock.lock.client-type}; else {@code spring.data.redis.client-type}, so the lock follows the
     * application's own Redis client; else Lettuce if it is there, else Jedis. A client that is asked for and
     * missing stops the application with a message naming what to add.
     */
    private static ClientType clientType(SeatlockLockProperties properties, Environment environment, ClassLoader classLoader) {
        boolean lettuce = ClassUtils.isPresent(LETTUCE, classLoader);
        boolean jedis = ClassUtils.isPresent(JEDIS, classLoader);
        ClientType chosen = properties.clientType();
        if (chosen == null) {
            String spring = environment.getProperty("spring.data.redis.client-type");
            chosen = spring != null ? ClientType.valueOf(spring.trim().toUpperCase(Locale.ROOT))
                    : lettuce || !jedis ? ClientType.LETTUCE : ClientType.JEDIS;
        }
        if (chosen == ClientType.LETTUCE && !lettuce) {
            throw new IllegalStateException("The seatlock lock is set to run on Lettuce, which is not on the class path: add "
                    + "io.lettuce:lettuce-core (seatlock-spring-boot-starter has it), or add io.seatlock:seatlock-redis-jedis "
                    + "and set seatlock.lock.client-type=jedis.");
        }
        if (chosen == ClientType.JEDIS && !jedis) {
            throw new IllegalStateException("The seatlock lock is set to run on Jedis (seatlock.lock.client-type or "
                    + "spring.data.redis.client-type), which needs io.seatlock:seatlock-redis-jedis on the class path.");
        }
        return chosen;
    }

    static RedisLockSettings settingsOf(SeatlockLockProperties properties) {
        return new RedisLockSettings(properties.keyPrefix(), properties.instanceIdOrDefault(),
                properties.clockDriftFactor(), properties.minSafetyMargin(), properties.minBackoff(),
                properties.maxBackoff(), properties.replication().replicas(), properties.replication().timeout());
    }

    /** Only when the lock is this configuration's own (not an application's replacement). */
    @Bean
    @ConditionalOnBean(RedisLockClient.class)
    RedisLockWarmUp seatlockRedisLockWarmUp(RedisLockClient lock) {
        return new RedisLockWarmUp(lock);
    }

    private static RedisEndpoints endpoints(SeatlockLockProperties properties, SpringRedisEndpoints springRedis) {
        if (!properties.clusterNodes().isEmpty()) {
            return RedisEndpoints.clusterOf(properties.clusterNodes());
        }
        if (properties.redisUrl() != null) {
            return RedisEndpoints.of(properties.redisUrl());
        }
        if (springRedis == null) {
            throw new IllegalStateException("No Redis is configured for the seatlock lock. Set seatlock.lock.redis-url "
                    + "(or seatlock.lock.cluster-nodes), or add spring-boot-starter-data-redis and set "
                    + "spring.data.redis.host to the Redis every replica shares.");
        }
        return springRedis.endpoints();
    }

    /** Spring Boot's own Redis settings, read only when Spring Data Redis is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(DataRedisConnectionDetails.class)
    static class SpringRedis {
        @Bean
        SpringRedisEndpoints seatlockSpringRedisEndpoints(ObjectProvider<DataRedisConnectionDetails> details,
                                                          ObjectProvider<DataRedisProperties> properties,
                                                          Environment environment) {
            return new SpringRedisEndpoints(details, properties, environment);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static class Metrics {
        @Bean
        @ConditionalOnMissingBean
        MicrometerLockListener micrometerLockListener(ObjectProvider<MeterRegistry> registry) {
            return new MicrometerLockListener(registry.getIfAvailable(SimpleMeterRegistry::new));
        }
    }
}
