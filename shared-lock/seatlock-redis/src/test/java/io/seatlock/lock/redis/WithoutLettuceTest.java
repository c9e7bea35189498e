package io.seatlock.lock.redis;

import io.seatlock.lock.DistributedLock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

import java.net.URL;
import java.net.URLClassLoader;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Lettuce is optional: an application on another transport has no Lettuce, yet frameworks reflect over the
 * lock's public types (Spring reads every declared method of a bean's class). So no public type a user of another
 * transport touches may name a Lettuce type in a signature. Loaded here with the module's own classes, the API and
 * SLF4J only.
 */
class WithoutLettuceTest {

    @Test
    void theLocksPublicTypesLoadAndReflectWithoutLettuce() throws Exception {
        try (URLClassLoader withoutLettuce = new URLClassLoader(new URL[] {location(RedisLockClient.class),
                location(DistributedLock.class), location(Logger.class), location(Nullable.class)},
                ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> withoutLettuce.loadClass("io.lettuce.core.RedisURI"))
                    .isInstanceOf(ClassNotFoundException.class);
            for (String type : new String[] {"io.seatlock.lock.redis.RedisLockClient", "io.seatlock.lock.redis.RedisLockSettings",
                    "io.seatlock.lock.redis.RedisKeys", "io.seatlock.lock.redis.spi.RedisTransport",
                    "io.seatlock.lock.redis.spi.RedisCommand"}) {
                assertThatCode(() -> {
                    Class<?> loaded = withoutLettuce.loadClass(type);
                    for (Class<?> nested : loaded.getDeclaredClasses()) {
                        nested.getDeclaredMethods();
                    }
                    loaded.getDeclaredMethods();
                    loaded.getDeclaredConstructors();
                    loaded.getDeclaredFields();
                }).as(type).doesNotThrowAnyException();
            }
        }
    }

    private static URL location(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }
}
