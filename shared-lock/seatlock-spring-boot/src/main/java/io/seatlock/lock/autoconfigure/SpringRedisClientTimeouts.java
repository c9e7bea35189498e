package io.seatlock.lock.autoconfigure;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Gives the application's own Spring Data Redis client the bound the lock has. Spring's client waits for a
 * reply without limit unless {@code spring.data.redis.timeout} is set (a black-holed Redis then hangs every
 * thread that calls it, and shutdown with them), and it connects with the operating system's timeout. Where
 * the user set neither, both default to {@code seatlock.lock.command-timeout} (2 s). The defaults sit behind
 * every other property source, so anything the user configures wins.
 */
class SpringRedisClientTimeouts implements EnvironmentPostProcessor {

    static final String SOURCE = "seatlock-spring-redis-client-timeouts";
    private static final String SPRING_REDIS_CLIENT = "org.springframework.data.redis.connection.RedisConnectionFactory";
    private static final String LOCK_TIMEOUT = "${seatlock.lock.command-timeout:" + SeatlockLockProperties.DEFAULT_COMMAND_TIMEOUT + "}";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!ClassUtils.isPresent(SPRING_REDIS_CLIENT, application.getClassLoader())) {
            return;
        }
        Map<String, Object> defaults = new LinkedHashMap<>();
        for (String property : new String[] {"spring.data.redis.timeout", "spring.data.redis.connect-timeout"}) {
            if (!environment.containsProperty(property)) {
                defaults.put(property, LOCK_TIMEOUT);
            }
        }
        if (!defaults.isEmpty()) {
            environment.getPropertySources().addLast(new MapPropertySource(SOURCE, defaults));
        }
    }
}
