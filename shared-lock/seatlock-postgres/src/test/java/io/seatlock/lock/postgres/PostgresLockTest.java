package io.seatlock.lock.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.lock.spi.LeaseTiming;
import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The PostgreSQL lock's own promises, read back from its lease table. */
class PostgresLockTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("PostgresLockTest");

    private static final Duration LONG = Duration.ofSeconds(30);
    private final PostgresLocks locks = new PostgresLocks();
    private PostgresLock lock;
    private PostgresLock other;

    @BeforeAll
    static void createTable() throws Exception {
        try (PostgresLocks setup = new PostgresLocks()) {
            setup.lock(setup.pool(servers), PostgresLockSettings.defaults(), LockListener.NOOP).createTable();
        }
    }

    @BeforeEach
    void setUp() {
        lock = locks.lock(locks.pool(servers), PostgresLockSettings.defaults().withInstanceId("a"), LockListener.NOOP);
        other = locks.lock(locks.pool(servers), PostgresLockSettings.defaults().withInstanceId("b"), LockListener.NOOP);
    }

    @AfterEach
    void tearDown() throws Exception {
        locks.close();
    }

    @Test
    void aGrantIsARowWithTheOwnerTokenTheHolderAndAnExpiryByTheDatabasesClock() throws Exception {
        LockLease lease = lock.tryAcquire("job:report", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK).orElseThrow();

        Map<String, Object> row = row("job:report");
        assertThat(row.get("owner_token")).isEqualTo(lease.ownerToken());
        assertThat(lease.ownerToken()).endsWith("@a");
        assertThat(row.get("holder")).isEqualTo("a");
        assertThat(row.get("fencing_token")).isEqualTo(lease.fencingToken().value());
        assertThat((Double) row.get("expires_in_ms")).isBetween(9_000.0, 10_000.0);
        assertThat(lock.holder("job:report")).contains("a");
        assertThat(other.remainingTtl("job:report")).hasValueSatisfying(left ->
                assertThat(left).isBetween(Duration.ofSeconds(9), Duration.ofSeconds(10)));

        assertThat(lease.release()).isEqualTo(ReleaseOutcome.RELEASED);
        Map<String, Object> released = row("job:report");
        assertThat(released.get("owner_token")).as("released, the row stays with its token").isNull();
        assertThat(released.get("fencing_token")).isEqualTo(lease.fencingToken().value());
        assertThat(lock.holder("job:report")).isEmpty();
    }

    @Test
    void tokensKeepGrowingAcrossADeletedRowAndASequenceSetBack() throws Exception {
        long first;
        try (LockLease lease = lock.tryAcquire("grow", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            first = lease.fencingToken().value();
        }
        execute("DELETE FROM seatlock.leases WHERE name = 'grow'");
        long afterDelete;
        try (LockLease lease = other.tryAcquire("grow", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            afterDelete = lease.fencingToken().value();
        }
        assertThat(afterDelete).isGreaterThan(first);

        // a restore that set the sequence back behind the rows: the row's own token still grows
        execute("SELECT setval('seatlock.leases_tokens', 1)");
        long afterSetBack;
        try (LockLease lease = lock.tryAcquire("grow", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            afterSetBack = lease.fencingToken().value();
        }
        assertThat(afterSetBack).isGreaterThan(afterDelete);

        // ... and createTable raises the sequence above every row, so a deleted row's name does not repeat a token
        execute("SELECT setval('seatlock.leases_tokens', 1)");
        lock.createTable();
        execute("DELETE FROM seatlock.leases WHERE name = 'grow'");
        try (LockLease lease = other.tryAcquire("grow", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            assertThat(lease.fencingToken().value()).isGreaterThan(afterSetBack);
        }
    }

    @Test
    void aWaiterIsWokenByTheReleaseNotByItsPoll() throws Exception {
        // back-off of 20 s: a waiter that got the lock within a second was told by the release
        PostgresLock slowPoller = locks.lock(locks.pool(servers), PostgresLockSettings.defaults()
                .withInstanceId("c").withTiming(LeaseTiming.defaults().withBackoff(Duration.ofSeconds(20),
                        Duration.ofSeconds(20))),
                LockListener.NOOP);
        LockLease held = lock.tryAcquire("handover", LONG, OverlapImpact.WASTED_WORK).orElseThrow();
        CompletableFuture<LockLease> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return slowPoller.acquire("handover", LONG, OverlapImpact.WASTED_WORK, Duration.ofSeconds(60));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> Boolean.TRUE.equals(row("handover").get("waited")));
        long releasedAt = System.nanoTime();
        held.release();
        LockLease handedOver = waiting.get(10, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).isLessThan(Duration.ofSeconds(5));
        assertThat(handedOver.ownerToken()).endsWith("@c");
        assertThat(row("handover").get("owner_token")).isEqualTo(handedOver.ownerToken());
    }

    @Test
    void aReleaseAsDecidedTurnsLaterCallersAwayAndABusyAnswerSaysHowLong() throws Exception {
        AcquireAttempt first = lock.tryAcquireUnlessDecided("seat:x:2B", LONG, OverlapImpact.BROKEN_PROMISE);
        LockLease lease = first.lease().orElseThrow();
        AcquireAttempt busy = other.tryAcquireUnlessDecided("seat:x:2B", LONG, OverlapImpact.BROKEN_PROMISE);
        assertThat(busy.isDecided()).isFalse();
        assertThat(busy.busyFor()).hasValueSatisfying(left -> assertThat(left).isBetween(Duration.ofSeconds(20), LONG));

        assertThat(lease.releaseDecided(Duration.ofMinutes(10))).isEqualTo(ReleaseOutcome.RELEASED);
        assertThat(row("seat:x:2B").get("owner_token")).isNull();
        assertThat(other.tryAcquireUnlessDecided("seat:x:2B", LONG, OverlapImpact.BROKEN_PROMISE).isDecided()).isTrue();
        assertThat(row("seat:x:2B").get("owner_token")).as("nothing taken").isNull();
        assertThat(other.tryAcquire("seat:x:2B", LONG, OverlapImpact.BROKEN_PROMISE)).as("a plain acquire ignores it")
                .isPresent();
    }

    @Test
    void aMissingTableIsAClearErrorNamingIt() {
        PostgresLock misnamed = locks.lock(locks.pool(servers),
                PostgresLockSettings.defaults().withTable("not_created_leases"), LockListener.NOOP);
        assertThatThrownBy(() -> misnamed.tryAcquire("x", LONG, OverlapImpact.WASTED_WORK))
                .isInstanceOf(LockUnavailableException.class)
                .hasMessageContaining("'not_created_leases'").hasMessageContaining("does not exist")
                .hasMessageContaining(PostgresLock.DDL_RESOURCE);
    }

    @Test
    void anExhaustedPoolIsUnavailableWithinTheCallBound() throws Exception {
        HikariDataSource one = locks.pool(servers, servers.jdbcUrl(), 1, Duration.ofMillis(500));
        PostgresLock starved = locks.lock(one, PostgresLockSettings.defaults().withCallTimeout(Duration.ofMillis(500)),
                LockListener.NOOP);
        try (Connection taken = one.getConnection()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> starved.tryAcquire("starved", LONG, OverlapImpact.WASTED_WORK))
                    .isInstanceOf(LockUnavailableException.class).hasMessageContaining("no connection in time");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
            assertThat(taken.isValid(1)).isTrue();
        }
        assertThat(row("starved")).as("nothing written").isEmpty();
        assertThat(starved.tryAcquire("starved", LONG, OverlapImpact.WASTED_WORK)).isPresent();
    }

    @Test
    void noConnectionIsHeldWhileALeaseIs() throws Exception {
        HikariDataSource pool = locks.pool(servers, servers.jdbcUrl(), 2, Duration.ofSeconds(2));
        PostgresLock lean = locks.lock(pool, PostgresLockSettings.defaults(), LockListener.NOOP);
        List<LockLease> leases = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            leases.add(lean.tryAcquire("many:" + i, LONG, OverlapImpact.WASTED_WORK).orElseThrow().keepAlive(() -> { }));
        }
        assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
        assertThat(lean.heldNames("many:")).hasSize(10);
        assertThat(lean.held(List.of("many:1", "many:11", "other"))).containsExactly("many:1");
        leases.forEach(LockLease::close);
        assertThat(lean.heldNames("many:")).isEmpty();
    }

    @Test
    void heldNamesTakesThePrefixLiterally() {
        lock.tryAcquire("pct:50%_off", LONG, OverlapImpact.WASTED_WORK).orElseThrow();
        lock.tryAcquire("pct:50x", LONG, OverlapImpact.WASTED_WORK).orElseThrow();
        assertThat(lock.heldNames("pct:50%")).containsExactly("pct:50%_off");
        assertThat(lock.heldNames("pct:50_")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "has{brace}", "tab\there"})
    void badInputIsRefusedBeforeAnySql(String name) throws Exception {
        long rows = count();
        assertThatThrownBy(() -> lock.tryAcquire(name, LONG, OverlapImpact.WASTED_WORK))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lock name");
        assertThatThrownBy(() -> lock.tryAcquire("fine", Duration.ZERO, OverlapImpact.WASTED_WORK))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(count()).isEqualTo(rows);
    }

    @Test
    void badSettingsAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> PostgresLockSettings.defaults().withTable("leases; DROP TABLE x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease table");
        assertThatThrownBy(() -> PostgresLockSettings.defaults().withCallTimeout(Duration.ZERO))
                .hasMessageContaining("call timeout");
        assertThatThrownBy(() -> PostgresLockSettings.defaults().withInstanceId(" ")).hasMessageContaining("instance id");
    }

    @Test
    void itKeepsNoLineOfWaitersAndSaysSoRatherThanServeOutOfOrder() {
        assertThatThrownBy(() -> lock.acquireInOrder("in-order", LONG, OverlapImpact.WASTED_WORK, Duration.ofSeconds(1)))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("PostgresLock")
                .hasMessageContaining("keeps no line");
    }

    @Test
    void closeReleasesWhatItHoldsAndRefusesLaterCalls() throws Exception {
        PostgresLock closing = locks.lock(locks.pool(servers), PostgresLockSettings.defaults(), LockListener.NOOP);
        closing.tryAcquire("closing", LONG, OverlapImpact.WASTED_WORK).orElseThrow().keepAlive(() -> { });
        closing.close();
        assertThat(row("closing").get("owner_token")).isNull();
        assertThatThrownBy(() -> closing.tryAcquire("closing", LONG, OverlapImpact.WASTED_WORK))
                .isInstanceOf(io.seatlock.lock.LockClosedException.class);
    }

    private static Map<String, Object> row(String name) throws SQLException {
        try (Connection c = servers.dataSource().getConnection();
             PreparedStatement s = c.prepareStatement("SELECT owner_token, holder, fencing_token, waited, "
                     + "extract(epoch FROM expires_at - clock_timestamp()) * 1000 AS expires_in_ms "
                     + "FROM seatlock.leases WHERE name = ?")) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return Map.of();
                }
                java.util.HashMap<String, Object> row = new java.util.HashMap<>();
                row.put("owner_token", rs.getString(1));
                row.put("holder", rs.getString(2));
                row.put("fencing_token", rs.getLong(3));
                row.put("waited", rs.getBoolean(4));
                row.put("expires_in_ms", rs.getDouble(5));
                return row;
            }
        }
    }

    private static long count() throws SQLException {
        try (Connection c = servers.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM seatlock.leases")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = servers.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
