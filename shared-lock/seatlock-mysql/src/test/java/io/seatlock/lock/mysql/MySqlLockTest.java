package io.seatlock.lock.mysql;

import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.LockClosedException;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.lock.spi.LeaseTiming;
import io.seatlock.localservers.IsolatedMariaDb;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The MySQL lock's own promises on a real MariaDB, read back from its lease table. */
class MySqlLockTest {

    @RegisterExtension
    static final IsolatedMariaDb database = new IsolatedMariaDb("MySqlLockTest");

    private static final Duration LONG = Duration.ofSeconds(30);
    private final MySqlLocks locks = new MySqlLocks();
    private MySqlLock lock;
    private MySqlLock other;

    @BeforeAll
    static void createTable() throws Exception {
        try (MySqlLocks setup = new MySqlLocks()) {
            MySqlLock first = setup.lock(setup.pool(database), MySqlLockSettings.defaults(), LockListener.NOOP);
            first.createTable();
            first.createTable(); // idempotent
        }
    }

    @BeforeEach
    void setUp() {
        lock = locks.lock(locks.pool(database), MySqlLockSettings.defaults().withInstanceId("a"), LockListener.NOOP);
        other = locks.lock(locks.pool(database), MySqlLockSettings.defaults().withInstanceId("b"), LockListener.NOOP);
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
        assertThat((Long) row.get("expires_in_ms")).isBetween(9_000L, 10_000L);
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
    void expiryIsJudgedInUtcWhateverTheConnectionsTimeZone() throws Exception {
        HikariDataSource east = locks.pool(database.jdbcUrl(), database, 2, Duration.ofSeconds(2),
                "SET time_zone = '-05:00'");
        MySqlLock eastern = locks.lock(east, MySqlLockSettings.defaults().withInstanceId("east"), LockListener.NOOP);
        LockLease lease = eastern.tryAcquire("tz", Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE).orElseThrow();
        assertThat(other.tryAcquire("tz", LONG, OverlapImpact.BROKEN_PROMISE)).as("live for a session at UTC").isEmpty();
        assertThat(eastern.remainingTtl("tz")).hasValueSatisfying(left ->
                assertThat(left).isBetween(Duration.ofSeconds(9), Duration.ofSeconds(10)));
        assertThat(lease.release()).isEqualTo(ReleaseOutcome.RELEASED);
    }

    @Test
    void tokensKeepGrowingAcrossADeletedRowAndATokenRowSetBack() throws Exception {
        long first;
        try (LockLease lease = lock.tryAcquire("grow", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            lease.renew(LONG);
        }
        try (LockLease lease = lock.tryAcquire("grow", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            first = lease.fencingToken().value();
        }
        execute("DELETE FROM seatlock_leases WHERE name = 'grow'");
        long afterDelete;
        try (LockLease lease = other.tryAcquire("grow", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            afterDelete = lease.fencingToken().value();
        }
        assertThat(afterDelete).as("the trigger kept the deleted row's token").isGreaterThan(first);

        // a restore that set the token row back behind the rows: createTable raises it above every row
        execute("UPDATE seatlock_leases_tokens SET last_token = 0");
        lock.createTable();
        execute("DELETE FROM seatlock_leases_tokens"); // and the trigger's row gone: createTable puts it back
        lock.createTable();
        execute("DELETE FROM seatlock_leases WHERE name = 'grow'");
        try (LockLease lease = other.tryAcquire("grow", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            assertThat(lease.fencingToken().value()).isGreaterThan(afterDelete);
        }
    }

    @Test
    void aWaiterOfThisLockIsWokenByItsReleaseAndAnotherProcessTakesItOnItsBackoff() throws Exception {
        // back-off of 20 s: a waiter of the same lock that got it within seconds was woken by the release
        MySqlLock slowPoller = locks.lock(locks.pool(database), MySqlLockSettings.defaults().withInstanceId("c")
                .withTiming(LeaseTiming.defaults().withBackoff(Duration.ofSeconds(20), Duration.ofSeconds(20))),
                LockListener.NOOP);
        LockLease held = slowPoller.tryAcquire("handover", LONG, OverlapImpact.WASTED_WORK).orElseThrow();
        CompletableFuture<LockLease> sameProcess = acquiring(slowPoller, "handover");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !sameProcess.isDone()
                && slowPoller.heldLeases().size() == 1);
        long releasedAt = System.nanoTime();
        held.release();
        LockLease handedOver = sameProcess.get(10, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).isLessThan(Duration.ofSeconds(5));
        assertThat(row("handover").get("owner_token")).isEqualTo(handedOver.ownerToken());

        // another process: its back-off of 200 ms at most, so it takes the lock within that after the release
        MySqlLock quickPoller = locks.lock(locks.pool(database), MySqlLockSettings.defaults().withInstanceId("d")
                .withTiming(LeaseTiming.defaults().withBackoff(Duration.ofMillis(50), Duration.ofMillis(200))),
                LockListener.NOOP);
        CompletableFuture<LockLease> otherProcess = acquiring(quickPoller, "handover");
        releasedAt = System.nanoTime();
        handedOver.release();
        LockLease polled = otherProcess.get(10, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - releasedAt)).isLessThan(Duration.ofSeconds(3));
        assertThat(polled.ownerToken()).endsWith("@d");
        assertThat(polled.fencingToken().isNewerThan(handedOver.fencingToken())).isTrue();
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
    void aGrantThatWaitsOutAGuardedWriteIsBusyWithinTheCallBoundAndTakesNothing() throws Exception {
        LockLease lease = lock.tryAcquire("guarded", Duration.ofMillis(300), OverlapImpact.BROKEN_PROMISE).orElseThrow();
        MySqlLeaseFence fence = new MySqlLeaseFence(MySqlLockSettings.defaults(), LockListener.NOOP);
        try (Connection guarded = database.dataSource().getConnection()) {
            guarded.setAutoCommit(false);
            fence.admit(guarded, lease); // holds the row in share mode until the transaction ends
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !lease.isValid());
            long start = System.nanoTime();
            assertThat(other.tryAcquire("guarded", LONG, OverlapImpact.BROKEN_PROMISE)).as("busy, not granted").isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
            guarded.rollback();
        }
        assertThat(row("guarded").get("fencing_token")).isEqualTo(lease.fencingToken().value());
        assertThat(other.tryAcquire("guarded", LONG, OverlapImpact.BROKEN_PROMISE)).as("granted once it ended")
                .isPresent();
    }

    @Test
    void aKilledConnectionIsDroppedAndTheCallTriedOnAnother() throws Exception {
        HikariDataSource pool = locks.pool(database.jdbcUrl(), database, 2, Duration.ofSeconds(2));
        MySqlLock killedUnder = locks.lock(pool, MySqlLockSettings.defaults().withInstanceId("k"), LockListener.NOOP);
        killedUnder.tryAcquire("warm", LONG, OverlapImpact.WASTED_WORK).orElseThrow().release();
        List<Long> ids = new ArrayList<>();
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM information_schema.PROCESSLIST WHERE db = '"
                     + database.database() + "' AND id <> CONNECTION_ID()")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        for (long id : ids) {
            execute("KILL CONNECTION " + id); // the pool's idle connections, and the other locks'
        }
        LockLease lease = killedUnder.tryAcquire("after-kill", LONG, OverlapImpact.WASTED_WORK).orElseThrow();
        assertThat(row("after-kill").get("owner_token")).isEqualTo(lease.ownerToken());
    }

    @Test
    void anExhaustedPoolIsUnavailableWithinTheCallBound() throws Exception {
        HikariDataSource one = locks.pool(database.jdbcUrl(), database, 1, Duration.ofMillis(500));
        MySqlLock starved = locks.lock(one, MySqlLockSettings.defaults().withCallTimeout(Duration.ofMillis(500)),
                LockListener.NOOP);
        try (Connection taken = one.getConnection()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> starved.tryAcquire("starved", LONG, OverlapImpact.WASTED_WORK))
                    .isInstanceOf(LockUnavailableException.class).hasMessageContaining("MySQL lock unavailable")
                    .hasMessageContaining("no connection in time");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
            assertThat(taken.isValid(1)).isTrue();
        }
        assertThat(row("starved")).as("nothing written").isEmpty();
        assertThat(starved.tryAcquire("starved", LONG, OverlapImpact.WASTED_WORK)).isPresent();
    }

    @Test
    void aMissingTableIsAClearErrorNamingIt() {
        MySqlLock misnamed = locks.lock(locks.pool(database),
                MySqlLockSettings.defaults().withTable("not_created_leases"), LockListener.NOOP);
        assertThatThrownBy(() -> misnamed.tryAcquire("x", LONG, OverlapImpact.WASTED_WORK))
                .isInstanceOf(LockUnavailableException.class)
                .hasMessageContaining("'not_created_leases'").hasMessageContaining("does not exist")
                .hasMessageContaining(MySqlLock.DDL_RESOURCE);
    }

    @Test
    void noConnectionIsHeldWhileALeaseIs() throws Exception {
        HikariDataSource pool = locks.pool(database.jdbcUrl(), database, 2, Duration.ofSeconds(2));
        MySqlLock lean = locks.lock(pool, MySqlLockSettings.defaults(), LockListener.NOOP);
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
        lock.tryAcquire("pct:a|b", LONG, OverlapImpact.WASTED_WORK).orElseThrow();
        assertThat(lock.heldNames("pct:50%")).containsExactly("pct:50%_off");
        assertThat(lock.heldNames("pct:50_")).isEmpty();
        assertThat(lock.heldNames("pct:a|")).containsExactly("pct:a|b");
        assertThat(lock.heldNames("PCT:")).as("names are case-sensitive").isEmpty();
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
        assertThatThrownBy(() -> MySqlLockSettings.defaults().withTable("leases; DROP TABLE x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease table");
        assertThatThrownBy(() -> MySqlLockSettings.defaults().withCallTimeout(Duration.ZERO))
                .hasMessageContaining("call timeout");
        assertThatThrownBy(() -> MySqlLockSettings.defaults().withInstanceId(" ")).hasMessageContaining("instance id");
    }

    @Test
    void itKeepsNoLineOfWaitersAndSaysSoRatherThanServeOutOfOrder() {
        assertThatThrownBy(() -> lock.acquireInOrder("in-order", LONG, OverlapImpact.WASTED_WORK, Duration.ofSeconds(1)))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("MySqlLock")
                .hasMessageContaining("keeps no line");
    }

    @Test
    void closeReleasesWhatItHoldsAndRefusesLaterCalls() throws Exception {
        MySqlLock closing = locks.lock(locks.pool(database), MySqlLockSettings.defaults(), LockListener.NOOP);
        closing.tryAcquire("closing", LONG, OverlapImpact.WASTED_WORK).orElseThrow().keepAlive(() -> { });
        closing.close();
        assertThat(row("closing").get("owner_token")).isNull();
        assertThatThrownBy(() -> closing.tryAcquire("closing", LONG, OverlapImpact.WASTED_WORK))
                .isInstanceOf(LockClosedException.class);
    }

    /** What the server says of a grant that waited for a row: its own wait ran out (1205) or it was a deadlock's victim (1213). */
    @Test
    void aDeadlockVictimOrARowWaitOutIsBusyAndAnythingElseUnavailable() {
        MySqlLeaseStatements statements = new MySqlLeaseStatements("seatlock_leases", Duration.ofSeconds(2));
        assertThat(statements.isRowWaitTimeout(new SQLException("Deadlock found", "40001", 1213))).isTrue();
        assertThat(statements.isRowWaitTimeout(new SQLException("Lock wait timeout exceeded", "HY000", 1205))).isTrue();
        assertThat(statements.isRowWaitTimeout(new SQLException("Query execution was interrupted", "70100", 1317)))
                .isFalse();
        assertThat(statements.isBrokenConnection(new SQLException("Connection killed", "08000"))).isTrue();
        assertThat(statements.isBrokenConnection(new java.sql.SQLTransientConnectionException("pool empty", "08001")))
                .as("an exhausted pool is no broken connection: nothing to try again on").isFalse();
    }

    private static CompletableFuture<LockLease> acquiring(MySqlLock lock, String name) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return lock.acquire(name, LONG, OverlapImpact.WASTED_WORK, Duration.ofSeconds(60));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static Map<String, Object> row(String name) throws SQLException {
        try (Connection c = database.dataSource().getConnection();
             PreparedStatement s = c.prepareStatement("SELECT owner_token, holder, fencing_token, "
                     + "TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), expires_at) DIV 1000 FROM seatlock_leases "
                     + "WHERE name = ?")) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return Map.of();
                }
                HashMap<String, Object> row = new HashMap<>();
                row.put("owner_token", rs.getString(1));
                row.put("holder", rs.getString(2));
                row.put("fencing_token", rs.getLong(3));
                row.put("expires_in_ms", rs.getLong(4));
                return row;
            }
        }
    }

    private static long count() throws SQLException {
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM seatlock_leases")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
