package io.seatlock.lock.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.fencing.PostgresFence;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.shedlock.SeatlockLockProvider;
import io.seatlock.localservers.IsolatedServers;
import net.javacrumbs.shedlock.core.LockProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class SharedLockAutoConfigurationTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SharedLockAutoConfigurationTest");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SharedLockAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=" + servers.redis().host(),
                    "spring.data.redis.port=" + servers.redis().port(),
                    "seatlock.lock.key-prefix=" + servers.keyPrefix(),
                    "seatlock.lock.instance-id=replica-7");

    @Test
    void wiresLockFenceShedLockHealthAndMetricsFromSpringsRedisSettings() {
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            assertThat(context).hasSingleBean(RedisLockClient.class).hasSingleBean(PostgresFence.class)
                    .hasSingleBean(SharedLockHealthIndicator.class);
            assertThat(context.getBean(LockProvider.class)).isInstanceOf(SeatlockLockProvider.class);
            RedisLockClient lock = context.getBean(RedisLockClient.class);
            lock.tryAcquire("seat:demo:1A", Duration.ofSeconds(5), OverlapImpact.BROKEN_PROMISE).orElseThrow();
            assertThat(lock.tryAcquire("seat:demo:1A", Duration.ofSeconds(5), OverlapImpact.BROKEN_PROMISE)).isEmpty();

            String owner = servers.redis().with(r -> r.get(servers.keyPrefix() + "lock:{seat:demo:1A}"));
            assertThat(owner).endsWith("@replica-7");
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters.counter("seatlock.lock.acquired", "group", "seat", "impact", "BROKEN_PROMISE").count())
                    .isEqualTo(1.0);
            assertThat(meters.counter("seatlock.lock.busy", "group", "seat").count()).isEqualTo(1.0);
            var health = context.getBean(SharedLockHealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("heldByThisInstance", 1).containsKey("roundTripMicros");
        });
    }

    @Test
    void backsOffForUserBeansAndCanBeSwitchedOff() {
        runner.withPropertyValues("seatlock.lock.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(RedisLockClient.class));
        runner.withPropertyValues("seatlock.lock.shedlock=false")
                .run(context -> assertThat(context).doesNotHaveBean(LockProvider.class));
    }

    @Test
    void rejectsABadKeyPrefixAtStartup() {
        runner.withPropertyValues("seatlock.lock.key-prefix=bad{prefix}")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("braces"));
    }

    @Test
    void reportsDownWhenRedisDoesNotAnswer() {
        runner.withPropertyValues("seatlock.lock.redis-url=redis://127.0.0.1:1", "seatlock.lock.command-timeout=300ms")
                .run(context -> assertThat(context.getBean(SharedLockHealthIndicator.class).health(true).getStatus())
                        .isEqualTo(Status.DOWN));
    }
}
