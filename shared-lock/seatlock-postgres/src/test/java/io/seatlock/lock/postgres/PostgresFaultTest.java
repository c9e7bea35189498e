package io.seatlock.lock.postgres;

import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockStoreRefusedException;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.FaultProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The PostgreSQL lock under faults, each reached through a proxy in front of a real PostgreSQL: a black-holed
 * server, one refusing connections, a grant whose answer is lost, and the holder's backends killed. A killed server
 * process is {@link PostgresCrashTest}'s.
 */
class PostgresFaultTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("PostgresFaultTest");

    private static final Duration CALL = Duration.ofMillis(500);
    private static final Duration LONG = Duration.ofSeconds(30);
    private final PostgresLocks locks = new PostgresLocks();
    private final Counts counts = new Counts();
    private FaultProxy proxy;
    private PostgresLock viaProxy;
    private PostgresLock direct;

    static final class Counts implements LockListener {
        final AtomicInteger unavailable = new AtomicInteger();
        final AtomicInteger renewed = new AtomicInteger();
        final AtomicInteger renewalFailed = new AtomicInteger();

        @Override
        public void onUnavailable(String group) {
            unavailable.incrementAndGet();
        }

        @Override
        public void onRenewed(String group) {
            renewed.incrementAndGet();
        }

        @Override
        public void onRenewalFailed(String group) {
            renewalFailed.incrementAndGet();
        }
    }

    @BeforeAll
    static void createTable() throws Exception {
        try (PostgresLocks setup = new PostgresLocks()) {
            setup.lock(setup.pool(servers), PostgresLockSettings.defaults(), LockListener.NOOP).createTable();
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        proxy = new FaultProxy(servers.postgres().host(), servers.postgres().port());
        String url = "jdbc:postgresql://" + proxy.host() + ":" + proxy.port() + "/" + servers.database();
        viaProxy = locks.lock(locks.pool(servers, url, 4, CALL),
                PostgresLockSettings.defaults().withInstanceId("proxied").withCallTimeout(CALL), counts);
        direct = locks.lock(locks.pool(servers), PostgresLockSettings.defaults().withInstanceId("direct"),
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
        PostgresLocks.KeptLease dark = PostgresLocks.KeptLease.on(viaProxy, "dark", Duration.ofMillis(2400));
        proxy.blackhole();

        PostgresLocks.assertUnavailableWithin(viaProxy, CALL);
        dark.assertLostBeforeItsDeadline();
        assertThat(counts.renewalFailed.get()).isPositive();
        assertThat(counts.unavailable.get()).isPositive();

        proxy.heal();
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> viaProxy.tryAcquire("after", LONG, OverlapImpact.WASTED_WORK).isPresent());
    }

    @Test
    void aLoginPostgresRefusesIsARefusalNotAnOutage() {
        HikariDataSource stranger = locks.pool(servers, servers.jdbcUrl(), 2, CALL);
        stranger.setUsername("nobody_" + UUID.randomUUID().toString().replace("-", "")); // a role that does not exist
        PostgresLock refused = locks.lock(stranger, PostgresLockSettings.defaults().withCallTimeout(CALL),
                LockListener.NOOP);
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
        assertThatThrownBy(() -> viaProxy.tryAcquire("killed", LONG, OverlapImpact.WASTED_WORK))
                .isInstanceOf(LockUnavailableException.class).hasMessageContaining("PostgreSQL lock unavailable");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(CALL.multipliedBy(3));
        assertThat(direct.remainingTtl("killed")).as("nothing granted").isEmpty();

        proxy.heal();
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> viaProxy.tryAcquire("killed", LONG, OverlapImpact.WASTED_WORK).isPresent());
        assertThat(direct.holder("killed")).contains("proxied");
    }

    @Test
    void aGrantWhoseAnswerIsLostIsUnknownToTheCallerAndExpiresWhereItCannotBeTakenBack() throws Exception {
        Duration ttl = Duration.ofMillis(1500);
        proxy.blackholeAfterClientSends("INSERT INTO seatlock.leases");
        assertThatThrownBy(() -> viaProxy.tryAcquire("unknown", ttl, OverlapImpact.BROKEN_PROMISE))
                .isInstanceOf(LockUnavailableException.class);
        assertThat(direct.holder("unknown")).as("the server granted it").contains("proxied");
        proxy.heal();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> direct.tryAcquire("unknown", LONG, OverlapImpact.BROKEN_PROMISE).isPresent());
    }

    @Test
    void killingTheHoldersBackendsChangesNothingForItsLeaseAndItsWaiters() throws Exception {
        LockLease lease = viaProxy.tryAcquire("survives", Duration.ofMillis(1200), OverlapImpact.BROKEN_PROMISE)
                .orElseThrow().keepAlive(() -> { });
        CompletableFuture<LockLease> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return viaProxy.acquire("survives", LONG, OverlapImpact.WASTED_WORK, LONG);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> waited("survives"));
        assertThat(terminateBackendsOfOthers()).as("the listener's connection, at least").isPositive();
        int renewedBefore = counts.renewed.get();
        await().atMost(Duration.ofSeconds(10)).until(() -> counts.renewed.get() >= renewedBefore + 3);
        assertThat(lease.isValid()).isTrue();
        assertThat(direct.holder("survives")).contains("proxied");

        lease.release();
        assertThat(waiter.get(10, TimeUnit.SECONDS).isValid()).isTrue();
    }

    private boolean waited(String name) throws SQLException {
        try (Connection c = servers.dataSource().getConnection();
             PreparedStatement s = c.prepareStatement("SELECT waited FROM seatlock.leases WHERE name = ?")) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /** Every other session of this test's database: the pools' connections and the release listener's. */
    private int terminateBackendsOfOthers() throws SQLException {
        try (Connection c = servers.dataSource().getConnection();
             PreparedStatement s = c.prepareStatement("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                     + "WHERE datname = ? AND pid <> pg_backend_pid()")) {
            s.setString(1, servers.database());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
