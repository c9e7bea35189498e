package io.seatlock.lock.autoconfigure;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Gives the application's own Spring Data Redis client the bound the lock has. Spring's client waits for a
 * reply without limit unless {@code spring.data.redis.timeout} is set (a black-holed Redis then hangs every
 * thread that calls it, and shutdown with them), and it connects with the operating system's timeout. Where
 * the user set neither, both default to {@code seatlock.lock.command-timeout} (2 s). The defaults sit behind
 * every other property source, so anything the user configures wins.
 */
final class SpringRedisClientTimeouts {

    static final String SOURCE = "seatlock-spring-redis-client-timeouts";
    private static final String SPRING_REDIS_CLIENT = "org.springframework.data.redis.connection.RedisConnectionFactory";
    private static final String LOCK_TIMEOUT = "${seatlock.lock.command-timeout:" + SeatlockLockProperties.DEFAULT_COMMAND_TIMEOUT + "}";

    private SpringRedisClientTimeouts() {
    }

    static void apply(ConfigurableEnvironment environment, ClassLoader classLoader) {
        if (!ClassUtils.isPresent(SPRING_REDIS_CLIENT, classLoader)) {
            return;
        }
        String lockTimeout = environment.getProperty("seatlock.lock.command-timeout");
        if (lockTimeout != null && !positiveDuration(lockTimeout)) {
            return; // the lock refuses it with a failure report of its own; Spring's client must not fail on it first
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

    private static boolean positiveDuration(String value) {
        try {
            Duration duration = DurationStyle.detectAndParse(value.trim());
            return !duration.isNegative() && !duration.isZero();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
