package io.seatlock.lock.shedlock;

import io.seatlock.lock.redis.TestTransports;
import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.spi.LockSpec;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.IsolatedServers;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.test.support.AbstractExtensibleLockProviderIntegrationTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * ShedLock's own provider contract ({@code shedlock-test-support}, every inherited case), plus the
 * stale-holder cases ShedLock's suite does not have: a holder whose lock expired must not extend or
 * release the next holder's lock.
 */
class SeatlockLockProviderContractTest extends AbstractExtensibleLockProviderIntegrationTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatlockLockProviderContractTest");

    /** One connected client for the class, as in a running replica. */
    private static RedisLockClient client;
    private static SeatlockLockProvider provider;
    private final String name = "job:" + UUID.randomUUID();

    @BeforeAll
    static void connect() {
        client = TestTransports.standalone(servers.redis().uri(), Duration.ofSeconds(2),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()), LockListener.NOOP);
        provider = new SeatlockLockProvider(client);
        client.ping();
    }

    @AfterAll
    static void close() {
        client.close();
    }

    @Override
    protected ExtensibleLockProvider getLockProvider() {
        return provider;
    }

    @Override
    protected void assertLocked(String lockName) {
        assertThat(exists(lockName)).as("lock %s held in Redis", lockName).isTrue();
    }

    @Override
    protected void assertUnlocked(String lockName) {
        assertThat(exists(lockName)).as("lock %s held in Redis", lockName).isFalse();
    }

    private boolean exists(String lockName) {
        return servers.redis().with(r -> r.exists(new RedisKeys(servers.keyPrefix()).lock(lockName))) == 1;
    }

    private Optional<SimpleLock> lock(Duration atMost) {
        return provider.lock(new LockConfiguration(Instant.now(), name, atMost, Duration.ZERO));
    }

    private long pttl() {
        return servers.redis().with(r -> r.pttl(new RedisKeys(servers.keyPrefix()).lock(name)));
    }

    @Test
    void extendAfterExpiryDoesNotProlongTheNewHoldersLock() {
        SimpleLock stale = lock(Duration.ofMillis(100)).orElseThrow();
        await().atMost(Duration.ofSeconds(2)).until(() -> !exists(name));
        lock(Duration.ofSeconds(2)).orElseThrow();

        assertThat(stale.extend(Duration.ofMinutes(10), Duration.ZERO)).isEmpty();
        assertThat(pttl()).isBetween(1L, 2_000L);
    }

    @Test
    void unlockAfterExpiryDoesNotReleaseTheNewHolder() {
        SimpleLock stale = lock(Duration.ofMillis(100)).orElseThrow();
        await().atMost(Duration.ofSeconds(2)).until(() -> !exists(name));
        lock(Duration.ofMinutes(1)).orElseThrow();

        stale.unlock();
        assertLocked(name);
        assertThat(lock(Duration.ofMinutes(1))).isEmpty();
    }

    /**
     * A weekly job's lockAtMostFor of days is granted, as ShedLock's own providers grant it, and held that long: lock()
     * threw while the lock's longest ttl was a day, so such a job never ran.
     */
    @Test
    void aLockAtMostForOfDaysIsGrantedAndHeldThatLong() {
        Duration week = Duration.ofDays(7);
        SimpleLock weekly = lock(week).orElseThrow();
        assertThat(pttl()).isBetween(week.minusMinutes(1).toMillis(), week.toMillis());
        assertThat(lock(Duration.ofMinutes(1))).as("held").isEmpty();
        weekly.unlock();
        assertUnlocked(name);
        assertThatThrownBy(() -> lock(LockSpec.MAX_TTL.plusDays(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exceeds the maximum of 30 days");
        assertUnlocked(name);
    }

    @Test // GH-10 item 3: lock() promises a lock or empty, never an exception, even for a lockAtMostFor that has passed
    void aLockAtMostForThatABusySchedulerAlreadyPassedGetsTheShortestLeaseNotAnError() {
        // As ShedLock's JDBC providers do (a lock_until already in the past), and as its own contract test
        // expects of a 2 ms lock on a machine slow enough to spend those 2 ms before lock() reads the clock.
        Instant created = Instant.now().minusSeconds(1);
        assertThat(provider.lock(new LockConfiguration(created, name, Duration.ofMillis(1), Duration.ZERO))).isPresent();
        assertThat(pttl()).isBetween(-2L, 2L);
        await().atMost(Duration.ofSeconds(2)).until(() -> !exists(name));
        assertThat(lock(Duration.ofMinutes(1))).as("free again at once").isPresent();
    }
}
