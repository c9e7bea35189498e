package io.seatlock.jobs;

import io.seatlock.localservers.IsolatedServers;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application that declares ShedLock's stock Redis provider (in its safe mode) as its own {@code LockProvider}
 * gets it: seatlock's provider backs off. The test shows what safe mode changes by running the same stale-unlock
 * steps with it off.
 */
class StockShedLockProviderTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("StockShedLockProviderTest");

    /** What an application writes to run its jobs under ShedLock's stock provider instead of seatlock's. */
    @Configuration(proxyBeanMethods = false)
    static class StockProvider {
        @Bean
        LockProvider stockRedisLockProvider(RedisConnectionFactory redis) {
            // safeUpdate: owner-checked unlock and extend; ShedLock's default is a blind DEL
            return new RedisLockProvider.Builder(redis).environment("jobs").safeUpdate(true).build();
        }
    }

    @Test
    void anApplicationsOwnStockRedisProviderReplacesSeatlocks() {
        Map<String, String> p = new HashMap<>(servers.springProperties());
        p.put("seatlock.leader.enabled", "false");
        p.put("spring.main.web-application-type", "none");
        p.put("jobs.report.cron", "-");
        p.put("jobs.payments.cron", "-");
        try (ConfigurableApplicationContext context = JobsReplica.start(
                new SpringApplicationBuilder(JobsApplication.class, StockProvider.class), p)) {
            LockProvider provider = context.getBean(LockProvider.class);
            assertThat(provider).isInstanceOf(RedisLockProvider.class);
            String name = "stock-" + System.nanoTime();
            SimpleLock lock = provider.lock(new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO))
                    .orElseThrow();
            assertThat(exists("job-lock:jobs:" + name)).isTrue();
            assertThat(provider.lock(new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO)))
                    .isEmpty();
            lock.unlock();
            assertThat(exists("job-lock:jobs:" + name)).isFalse();

            // Safe mode: a holder whose lock expired cannot delete the next holder's lock with its unlock.
            RedisConnectionFactory redis = context.getBean(RedisConnectionFactory.class);
            assertThat(staleUnlockDeletesNextHolder(provider, name + "-safe")).isFalse();
            // The same steps with safe mode off (ShedLock's default) do delete it: what the test catches.
            LockProvider unsafe = new RedisLockProvider.Builder(redis).environment("jobs").build();
            assertThat(staleUnlockDeletesNextHolder(unsafe, name + "-unsafe")).isTrue();
        }
    }

    /** A holder's lock expires, another replica takes it, the first one unlocks late: is the new lock gone? */
    private static boolean staleUnlockDeletesNextHolder(LockProvider provider, String name) {
        SimpleLock stale = provider.lock(new LockConfiguration(Instant.now(), name, Duration.ofMillis(200), Duration.ZERO))
                .orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(() -> !exists("job-lock:jobs:" + name));
        SimpleLock next = provider.lock(new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO))
                .orElseThrow();
        stale.unlock();
        boolean deleted = !exists("job-lock:jobs:" + name);
        next.unlock();
        return deleted;
    }

    private static boolean exists(String key) {
        return servers.redis().with(r -> r.exists(key)) == 1;
    }
}
