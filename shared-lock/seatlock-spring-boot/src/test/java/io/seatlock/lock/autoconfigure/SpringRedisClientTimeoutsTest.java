package io.seatlock.lock.autoconfigure;

import io.seatlock.localservers.LocalServers;
import io.seatlock.localservers.RedisServer;
import io.seatlock.test.FaultProxy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * GH-21 item 9: with the starter, the application's own Spring Redis client is bounded like the lock: where
 * the user set no {@code spring.data.redis.timeout} / {@code connect-timeout}, both take the lock's command
 * timeout; whatever the user sets wins. Without this, a call on a black-holed Redis never returned.
 */
class SpringRedisClientTimeoutsTest {

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(DataRedisAutoConfiguration.class)
    static class App {
    }

    @BeforeAll
    static void oneLoggingSetUpPerJvm() {
        System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
    }

    private static ConfigurableApplicationContext start(int redisPort, String... properties) {
        return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redisPort,
                        "spring.main.banner-mode=off")
                .properties(properties).run();
    }

    private static Duration commandTimeout(ConfigurableApplicationContext app) {
        return app.getBean(LettuceConnectionFactory.class).getClientConfiguration().getCommandTimeout();
    }

    private static Duration connectTimeout(ConfigurableApplicationContext app) {
        return app.getEnvironment().getProperty("spring.data.redis.connect-timeout", Duration.class);
    }

    @Test
    void springsClientGetsTheLocksTimeoutUnlessTheUserSetsOne() {
        int port = LocalServers.redis().port();
        try (ConfigurableApplicationContext app = start(port)) {
            assertThat(commandTimeout(app)).isEqualTo(Duration.ofSeconds(2));
            assertThat(connectTimeout(app)).isEqualTo(Duration.ofSeconds(2));
        }
        try (ConfigurableApplicationContext app = start(port, "seatlock.lock.command-timeout=750ms")) {
            assertThat(commandTimeout(app)).isEqualTo(Duration.ofMillis(750));
            assertThat(connectTimeout(app)).isEqualTo(Duration.ofMillis(750));
        }
        try (ConfigurableApplicationContext app = start(port, "spring.data.redis.timeout=5s",
                "spring.data.redis.connect-timeout=3s")) {
            assertThat(commandTimeout(app)).isEqualTo(Duration.ofSeconds(5));
            assertThat(connectTimeout(app)).isEqualTo(Duration.ofSeconds(3));
        }
    }

    /** A lock timeout the lock refuses is not handed to Spring's client, which would fail first, with no report. */
    @Test
    void aLockTimeoutTheLockRefusesIsLeftForTheLocksFailureReport() {
        int port = LocalServers.redis().port();
        for (String refused : new String[] {"-1s", "0s", "soon"}) {
            try (ConfigurableApplicationContext app = start(port, "seatlock.lock.command-timeout=" + refused)) {
                assertThat(app.getEnvironment().getPropertySources().contains(SpringRedisClientTimeouts.SOURCE))
                        .as(refused).isFalse();
                assertThat(connectTimeout(app)).as(refused).isNull();
            }
        }
    }

    /**
     * The bounds the README gives for Spring's own client with the starter's default: a call on a connection that
     * goes dark fails at its timeout; a call that must connect first (the application's first, or after the
     * connection was lost) to a black-holed Redis fails within twice it (the handshake has the timeout, the first
     * connect of a process also builds the client's threads). Measured here: 1.0 s and 1.4 s for 1 s.
     */
    @Test
    void aCallOnABlackHoledRedisFailsWithinTheTimeoutInsteadOfHanging() throws Exception {
        RedisServer redis = LocalServers.redis();
        Duration timeout = Duration.ofSeconds(1);
        Duration scheduling = Duration.ofSeconds(1); // a busy machine's share (2.97 s seen beside two builds), far below the unbounded wait it was
        try (FaultProxy link = new FaultProxy(redis.host(), redis.port());
             ConfigurableApplicationContext app = start(link.port(), "seatlock.lock.command-timeout=1s")) {
            StringRedisTemplate template = app.getBean(StringRedisTemplate.class);
            link.blackhole();
            assertThat(failureTime(template)).as("a first call, which connects")
                    .isLessThan(timeout.multipliedBy(2).plus(scheduling));
            link.heal();
            assertThat(template.hasKey("seatlock-test:spring-client-timeouts")).isFalse();
            link.blackhole();
            assertThat(failureTime(template)).as("a call on a connection gone dark").isLessThan(timeout.plus(scheduling));
        }
    }

    private static Duration failureTime(StringRedisTemplate template) {
        long started = System.nanoTime();
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(
                () -> template.hasKey("seatlock-test:spring-client-timeouts")).isInstanceOf(DataAccessException.class));
        return Duration.ofNanos(System.nanoTime() - started);
    }
}
