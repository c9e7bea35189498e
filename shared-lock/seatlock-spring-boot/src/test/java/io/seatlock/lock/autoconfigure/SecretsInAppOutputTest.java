package io.seatlock.lock.autoconfigure;

import io.seatlock.localservers.OwnedRedis;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An application whose Redis URL carries a password never shows it: not in its start-up log, the health details, the
 * {@code /actuator/locks} answer, nor a start-up failure report, whether the password is right, wrong (the refusal is
 * said as what it is: health and an ERROR line) or the URL is refused.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecretsInAppOutputTest {

    private static final String PASSWORD = "Marker-S3cret-app-5c2e";
    private static OwnedRedis redis;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({SeatlockLockAutoConfiguration.class, SeatlockLeaderAutoConfiguration.class,
            SeatlockActuatorAutoConfiguration.class})
    static class App {
    }

    @BeforeAll
    static void startRedisWithAPassword() throws Exception {
        redis = new OwnedRedis("requirepass " + PASSWORD);
    }

    @AfterAll
    static void stop() throws Exception {
        redis.close();
    }

    @Test
    void theRightPasswordShowsNowhere(CapturedOutput output) throws Exception {
        try (ConfigurableApplicationContext app = start("seatlock.lock.redis-url=redis://:" + PASSWORD + "@127.0.0.1:"
                + redis.port())) {
            DistributedLock lock = app.getBean(DistributedLock.class);
            try (LockLease held = lock.tryAcquire("seat:14C", Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE)
                    .orElseThrow()) {
                Health health = app.getBean(Boot4SeatlockHealthIndicator.class).health(true);
                Object locks = app.getBean(LocksEndpoint.class).locks();
                assertThat(health.getStatus().getCode()).isEqualTo("UP");
                assertThat(locks.toString()).contains("seat:14C").contains(Long.toString(held.fencingToken().value()));
                assertThat(health.toString()).contains("store=redis").doesNotContain(PASSWORD);
                assertThat(locks.toString()).doesNotContain(PASSWORD);
            }
        }
        assertThat(output.getOut()).contains("seatlock lock connected to Redis (redis://127.0.0.1:" + redis.port())
                .doesNotContain(PASSWORD);
    }

    @Test
    void aWrongPasswordIsSaidAsARefusalAndShowsNowhere(CapturedOutput output) {
        String wrong = PASSWORD + "-wrong";
        try (ConfigurableApplicationContext app = start("seatlock.lock.redis-url=redis://:" + wrong + "@127.0.0.1:"
                + redis.port())) {
            Health health = app.getBean(Boot4SeatlockHealthIndicator.class).health(true);
            assertThat(health.getStatus().getCode()).isEqualTo("DEGRADED");
            assertThat(health.getStatus().getDescription()).isEqualTo(SeatlockHealth.REFUSED).contains("refused");
            assertThat(health.getDetails()).containsEntry("refused", true);
            assertThat(health.getDetails().get("error").toString()).contains("authentication failed (WRONGPASS");
            assertThat(health.toString()).doesNotContain(wrong);
            assertThat(app.getBean(LocksEndpoint.class).locks().toString()).doesNotContain(wrong);
        }
        assertThat(output.getOut()).contains("ERROR").contains("Redis refused the lock, and no retry mends that")
                .doesNotContain(wrong).doesNotContain("did not answer while the application started");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rediss://:%s@127.0.0.1:%d", "redis://:%s@127.0.0.1:%d/notadatabase",
            "http://:%s@127.0.0.1:%d"})
    void aFailureReportOnAUrlWithAPasswordShowsItNowhere(String url, CapturedOutput output) {
        assertThatThrownBy(() -> start("seatlock.lock.redis-url=" + url.formatted(PASSWORD, redis.port())).close())
                .isNotNull();
        assertThat(output.getOut()).contains("APPLICATION FAILED TO START").doesNotContain(PASSWORD);
    }

    private static ConfigurableApplicationContext start(String... properties) {
        return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "seatlock.lock.key-prefix=secrets-test:",
                        "seatlock.lock.connect-timeout=5s", "seatlock.lock.command-timeout=1s",
                        "seatlock.leader.groups.jobs.lease=10s", "management.endpoints.web.exposure.include=*")
                .properties(properties).run();
    }
}
