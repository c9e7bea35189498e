package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockStoreRefusedException;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.autoconfigure.SeatlockLockProperties.ClientType;
import io.seatlock.lock.redis.RedisEndpoints;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.redis.spi.RedisTransport;
import io.seatlock.lock.spi.LockListeners;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

import static io.seatlock.lock.autoconfigure.InvalidSeatlockConfigurationException.checked;

/**
 * The Redis lock from {@code seatlock.lock.*}, when Redis is the store ({@link SeatlockStoreCondition}): on {@code seatlock.lock.redis-url} or
 * {@code cluster-nodes} when set, else on the application's own {@code spring.data.redis.*} connection
 * (when Spring Data Redis is on the class path); carried by Lettuce or Jedis ({@code seatlock.lock.client-type}).
 * Backs off when the application defines its own {@link DistributedLock}.
 */
@AutoConfiguration(afterName = {"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration"})
@ConditionalOnClass(RedisLockClient.class)
@ConditionalOnBooleanProperty(name = "seatlock.lock.enabled", matchIfMissing = true)
@Conditional(SeatlockStoreCondition.OnRedis.class)
@EnableConfigurationProperties(SeatlockLockProperties.class)
public class SeatlockLockAutoConfiguration {

    /** Made by Spring Boot, which finds this class in the auto-configuration imports. */
    public SeatlockLockAutoConfiguration() {
    }

    private static final String LETTUCE = "io.seatlock.lock.redis.lettuce.LettuceTransport";
    private static final String JEDIS = "io.seatlock.lock.redis.jedis.JedisTransport";

    private static final Logger log = LoggerFactory.getLogger(SeatlockLockAutoConfiguration.class);
    private static final String FIX_THE_VALUE = "Correct the property; docs/spring-boot.md lists each seatlock property "
            + "with its default and range.";

    /**
     * The lock, connected: it connects (within the connect timeout) before it is handed to any bean, so the migration
     * gate and the application's first lock call find a connection. A Redis that does not answer yet is logged and
     * the application starts; lock calls then fail fast until it answers. A Redis that answers in a way no retry
     * mends (TLS asked of a server without it, a Cluster asked of a single server) stops start-up.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(DistributedLock.class)
    RedisLockClient distributedLock(SeatlockLockProperties properties, ObjectProvider<SpringRedisEndpoints<?>> springRedis,
                                    ObjectProvider<LockListener> listeners, Environment environment,
                                    ResourceLoader resources) {
        RedisLockSettings settings = checked("seatlock.lock", FIX_THE_VALUE, () -> settingsOf(properties));
        RedisTimeouts timeouts = timeoutsOf(properties);
        checked("seatlock.lock.cluster-refresh", FIX_THE_VALUE,
                () -> RedisTransport.requirePositiveRefresh(properties.clusterRefresh()));
        LockListener listener = LockListeners.guarded(listeners.orderedStream().toList());
        RedisEndpoints endpoints = endpoints(properties, springRedis.getIfAvailable());
        RedisTransport transport = checked("seatlock.lock.redis-url", FIX_THE_VALUE,
                () -> switch (clientType(properties, environment, resources.getClassLoader())) {
                    case LETTUCE -> LettuceLocks.transport(endpoints, timeouts, properties.clusterRefresh());
                    case JEDIS -> JedisLocks.transport(endpoints, timeouts, properties.clusterRefresh());
                });
        RedisLockClient lock = RedisLockClient.over(transport, settings, listener);
        connect(lock, endpoints, timeouts);
        return lock;
    }

    @Bean
    @ConditionalOnBean(RedisLockClient.class)
    ReplicaLocks seatlockReplicaLocks(RedisLockClient lock) {
        return new ReplicaLocks(lock, lock::ping, lock.settings().instanceId(), lock::heldLeases,
                Map.of("store", "redis", "keyPrefix", lock.settings().keyPrefix(), "client", lock.client()));
    }

    static RedisTimeouts timeoutsOf(SeatlockLockProperties properties) {
        checked("seatlock.lock.command-timeout", FIX_THE_VALUE, () -> RedisTimeouts.of(properties.commandTimeout()));
        return checked("seatlock.lock.connect-timeout", FIX_THE_VALUE,
                () -> new RedisTimeouts(properties.connectTimeout(), properties.commandTimeout()));
    }

    private static void connect(RedisLockClient lock, RedisEndpoints endpoints, RedisTimeouts timeouts) {
        try {
            Duration took = lock.ping();
            log.info("seatlock lock connected to Redis ({}, {}) in {} ms", endpoints.describe(), lock.client(),
                    took.toMillis());
        } catch (LockUnavailableException e) {
            InvalidSeatlockConfigurationException mistake = StartupMistakes.of(e, endpoints);
            if (mistake != null) {
                lock.close();
                throw mistake;
            }
            if (!(e instanceof LockStoreRefusedException)) { // a refusal the lock has logged at ERROR itself
                log.warn("seatlock lock: Redis ({}) did not answer while the application started: {}. The "
                        + "application starts; lock calls fail with LockUnavailableException until Redis answers (each "
                        + "within {})", endpoints.describe(), e.getMessage(), timeouts.command());
            }
        }
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
            throw new InvalidSeatlockConfigurationException("The seatlock lock is set to run on Lettuce "
                    + "(io.seatlock:seatlock-redis-lettuce), which is not on the class path.",
                    "Add io.seatlock:seatlock-redis-lettuce (seatlock-spring-boot-starter has it), or add "
                    + "io.seatlock:seatlock-redis-jedis and set seatlock.lock.client-type=jedis.", null);
        }
        if (chosen == ClientType.JEDIS && !jedis) {
            throw new InvalidSeatlockConfigurationException("The seatlock lock is set to run "
                    + "on Jedis (seatlock.lock.client-type or spring.data.redis.client-type), which needs "
                    + "io.seatlock:seatlock-redis-jedis on the class path.",
                    "Add io.seatlock:seatlock-redis-jedis, or set seatlock.lock.client-type=lettuce.", null);
        }
        return chosen;
    }

    static RedisLockSettings settingsOf(SeatlockLockProperties properties) {
        return RedisLockSettings.defaults().withKeyPrefix(properties.keyPrefix())
                .withInstanceId(properties.instanceIdOrDefault())
                .withTiming(properties.timing())
                .withReplicas(properties.replication().replicas(), properties.replication().timeout());
    }

    private static RedisEndpoints endpoints(SeatlockLockProperties properties, SpringRedisEndpoints<?> springRedis) {
        if (!properties.clusterNodes().isEmpty()) {
            return checked("seatlock.lock.cluster-nodes", "Give each seed as host:port, or as "
                    + "redis://user:password@host:port (rediss:// for TLS), the same login on every seed.",
                    () -> RedisEndpoints.clusterOf(properties.clusterNodes()));
        }
        if (properties.redisUrl() != null) {
            return checked("seatlock.lock.redis-url", "Give a URL such as redis://host:6379, "
                    + "rediss://user:password@host:6380 or redis-sentinel://host:26379#mymaster.",
                    () -> RedisEndpoints.of(properties.redisUrl()));
        }
        String noRedis = "No Redis is configured for the seatlock lock (seatlock.lock.redis-url, seatlock.lock.cluster-nodes "
                + "or spring.data.redis.*); it does not fall back to localhost, where each replica would lock on a Redis "
                + "of its own.";
        String setOne = "Set seatlock.lock.redis-url (or seatlock.lock.cluster-nodes) to the Redis every replica shares, "
                + "or set spring.data.redis.host (with spring-boot-starter-data-redis); or set seatlock.lock.enabled=false "
                + "and define a DistributedLock bean of your own.";
        if (springRedis == null || !springRedis.configured()) {
            throw new InvalidSeatlockConfigurationException(noRedis, setOne, null);
        }
        return springRedis.endpoints();
    }

    /** Spring Boot 4's own Redis settings, read only when Spring Data Redis is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails")
    static class Boot4SpringRedis {
        @Bean
        SpringRedisEndpoints<?> seatlockSpringRedisEndpoints(
                ObjectProvider<org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails> details,
                ObjectProvider<org.springframework.boot.data.redis.autoconfigure.DataRedisProperties> properties,
                Environment environment) {
            return new Boot4RedisEndpoints(details, properties, environment);
        }
    }

    /** Spring Boot 3.5's own Redis settings, the same way. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails")
    static class Boot3SpringRedis {
        @Bean
        SpringRedisEndpoints<?> seatlockSpringRedisEndpoints(
                ObjectProvider<org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails> details,
                ObjectProvider<org.springframework.boot.autoconfigure.data.redis.RedisProperties> properties,
                Environment environment) {
            return new Boot3RedisEndpoints(details, properties, environment);
        }
    }

}
