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

import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code jobs.lock-provider=shedlock-redis} swaps in ShedLock's stock Redis provider, in its safe mode. */
class StockShedLockProviderTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("StockShedLockProviderTest");

    @Test
    void theStockRedisProviderIsSelectableByConfiguration() {
        String[] args = Stream.concat(
                servers.springProperties().entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()),
                Stream.of("--jobs.lock-provider=shedlock-redis", "--seatlock.leader.enabled=false",
                        "--spring.main.web-application-type=none", "--jobs.report.cron=-", "--jobs.payments.cron=-"))
                .toArray(String[]::new);
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(JobsApplication.class).run(args)) {
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
        }
    }

    private static boolean exists(String key) {
        return servers.redis().with(r -> r.exists(key)) == 1;
    }
}
