package io.seatlock.lock.shedlock;

import io.seatlock.lock.LockListener;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.IsolatedServers;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** ShedLock's provider contract (its test-support cases, ported) plus the stale-holder cases, safe mode only. */
class SeatlockLockProviderContractTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatlockLockProviderContractTest");

    private final RedisLockClient client = RedisLockClient.standalone(servers.redis().uri(), Duration.ofSeconds(2),
            RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), LockListener.NOOP);
    private final SeatlockLockProvider provider = new SeatlockLockProvider(client);
    private final String name = "job:" + UUID.randomUUID();

    @AfterEach
    void close() {
        client.close();
    }

    private LockConfiguration config(Duration atMost, Duration atLeast) {
        return new LockConfiguration(Instant.now(), name, atMost, atLeast);
    }

    private boolean locked() {
        return servers.redis().with(r -> r.exists(servers.keyPrefix() + "lock:{" + name + "}")) == 1;
    }

    private Optional<SimpleLock> lock(Duration atMost) {
        return provider.lock(config(atMost, Duration.ZERO));
    }

    @Test
    void shouldCreateLockAndRefuseASecondOne() {
        SimpleLock lock = lock(Duration.ofMinutes(5)).orElseThrow();
        assertThat(locked()).isTrue();
        assertThat(lock(Duration.ofMinutes(5))).isEmpty();
        lock.unlock();
        assertThat(locked()).isFalse();
    }

    @Test
    void shouldCreateTwoIndependentLocks() {
        assertThat(lock(Duration.ofMinutes(5))).isPresent();
        assertThat(provider.lock(new LockConfiguration(Instant.now(), name + "-2", Duration.ofMinutes(5),
                Duration.ZERO))).isPresent();
    }

    @Test
    void shouldLockRightAfterUnlockAndAfterTimeout() {
        for (int i = 0; i < 10; i++) {
            SimpleLock lock = lock(Duration.ofMinutes(5)).orElseThrow();
            assertThat(lock(Duration.ofMinutes(5))).isEmpty();
            lock.unlock();
        }
        lock(Duration.ofMillis(50)).orElseThrow();
        await().atMost(Duration.ofSeconds(2)).until(() -> !locked());
        assertThat(lock(Duration.ofMinutes(5))).isPresent();
    }

    @Test
    void shouldLockAtLeastFor() {
        provider.lock(config(Duration.ofSeconds(4), Duration.ofMillis(800))).orElseThrow().unlock();
        assertThat(locked()).isTrue();
        assertThat(lock(Duration.ofMinutes(5))).isEmpty();
        await().atLeast(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> !locked());
        assertThat(lock(Duration.ofMinutes(5))).isPresent();
    }

    @Test
    void fuzzManyThreadsLoseNoUpdate() throws Exception {
        String counterKey = servers.keyPrefix() + "fuzz";
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Integer>> runs = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            runs.add(pool.submit(() -> {
                int done = 0;
                while (done < 20) {
                    Optional<SimpleLock> lock = lock(Duration.ofMinutes(5));
                    if (lock.isEmpty()) {
                        Thread.onSpinWait();
                        continue;
                    }
                    String seen = servers.redis().with(r -> r.get(counterKey));
                    long next = (seen == null ? 0 : Long.parseLong(seen)) + 1;
                    servers.redis().with(r -> r.set(counterKey, Long.toString(next)));
                    lock.get().unlock();
                    done++;
                }
                return done;
            }));
        }
        int total = 0;
        for (Future<Integer> run : runs) {
            total += run.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();
        String counter = servers.redis().with(r -> r.get(counterKey));
        assertThat(counter).isEqualTo(Integer.toString(total)).isEqualTo("160");
    }

    @Test
    void shouldExtendRepeatedlyAndHandlesAreSingleUse() {
        SimpleLock first = lock(Duration.ofSeconds(2)).orElseThrow();
        SimpleLock second = first.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
        SimpleLock third = second.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
        assertThat(pttl()).isGreaterThan(5_000L);
        assertThatThrownBy(() -> first.extend(Duration.ofSeconds(10), Duration.ZERO))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(first::unlock).isInstanceOf(IllegalStateException.class);
        third.unlock();
        assertThat(locked()).isFalse();
        assertThatThrownBy(() -> third.extend(Duration.ofSeconds(10), Duration.ZERO))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldExtendAtLeast() {
        SimpleLock lock = lock(Duration.ofSeconds(2)).orElseThrow();
        lock.extend(Duration.ofSeconds(10), Duration.ofSeconds(9)).orElseThrow().unlock();
        assertThat(locked()).isTrue();
    }

    @Test
    void extendAfterExpiryDoesNotProlongTheNewHoldersLock() {
        SimpleLock stale = lock(Duration.ofMillis(100)).orElseThrow();
        await().atMost(Duration.ofSeconds(2)).until(() -> !locked());
        lock(Duration.ofSeconds(2)).orElseThrow();

        assertThat(stale.extend(Duration.ofMinutes(10), Duration.ZERO)).isEmpty();
        assertThat(pttl()).isBetween(1L, 2_000L);
    }

    @Test
    void unlockAfterExpiryDoesNotReleaseTheNewHolder() {
        SimpleLock stale = lock(Duration.ofMillis(100)).orElseThrow();
        await().atMost(Duration.ofSeconds(2)).until(() -> !locked());
        lock(Duration.ofMinutes(1)).orElseThrow();

        stale.unlock();
        assertThat(locked()).isTrue();
        assertThat(lock(Duration.ofMinutes(1))).isEmpty();
    }

    private long pttl() {
        return servers.redis().with(r -> r.pttl(servers.keyPrefix() + "lock:{" + name + "}"));
    }
}
