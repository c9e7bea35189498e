package io.seatlock.lock.mysql;

import io.seatlock.lock.Checkpoint;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.localservers.IsolatedMariaDb;
import io.seatlock.test.Pause;
import io.seatlock.test.Pauses;
import io.seatlock.test.WriteHistory;
import io.seatlock.test.WriteHistory.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Seat 14C on MariaDB alone: Lena's server takes the seat's lock, pauses before its write until its lease ran out,
 * and wakes. With the lease fence its write is refused, whether or not Omar's server has booked meanwhile; without it
 * (a plain write under the lock) Lena's write overwrites Omar's booking. {@link WriteHistory} judges both.
 */
class MySqlLeaseFenceTest {

    @RegisterExtension
    static final IsolatedMariaDb database = new IsolatedMariaDb("MySqlLeaseFenceTest");
    @RegisterExtension
    final Pauses pauses = new Pauses();

    private static final Duration SHORT = Duration.ofMillis(600);
    private static final Duration LONG = Duration.ofSeconds(30);
    private final MySqlLocks locks = new MySqlLocks();
    private final AtomicInteger rejections = new AtomicInteger();
    private MySqlLock lenasServer;
    private MySqlLock omarsServer;
    private MySqlLeaseFence fence;

    @BeforeAll
    static void tables() throws Exception {
        try (MySqlLocks setup = new MySqlLocks()) {
            setup.lock(setup.pool(database), MySqlLockSettings.defaults(), LockListener.NOOP).createTable();
        }
        execute("CREATE TABLE seats (seat VARCHAR(10) PRIMARY KEY, buyer VARCHAR(40), token BIGINT) ENGINE = InnoDB");
    }

    @BeforeEach
    void setUp() throws SQLException {
        execute("DELETE FROM seats");
        execute("INSERT INTO seats (seat) VALUES ('14C')");
        lenasServer = locks.lock(locks.pool(database), MySqlLockSettings.defaults().withInstanceId("server-a"),
                LockListener.NOOP);
        omarsServer = locks.lock(locks.pool(database), MySqlLockSettings.defaults().withInstanceId("server-b"),
                LockListener.NOOP);
        fence = new MySqlLeaseFence(MySqlLockSettings.defaults(), new LockListener() {
            @Override
            public void onFencingRejected(String resource) {
                rejections.incrementAndGet();
            }
        });
    }

    @AfterEach
    void tearDown() throws Exception {
        locks.close();
    }

    /** Books the seat under the lock: the lock first, then (guarded) the fence, then a plain write. */
    private Outcome book(MySqlLock server, String buyer, Duration ttl, boolean guarded, WriteHistory history)
            throws SQLException {
        LockLease lease = server.tryAcquire("seat:14C", ttl, OverlapImpact.BROKEN_PROMISE).orElse(null);
        if (lease == null) {
            history.attempt(buyer, "seat 14C", 0).told(Outcome.REJECTED, "busy");
            return Outcome.REJECTED;
        }
        WriteHistory.Attempt attempt = history.attempt(buyer, "seat 14C", lease.fencingToken().value());
        Checkpoint.reach("seat-write");
        try (Connection c = database.dataSource().getConnection()) {
            c.setAutoCommit(false);
            try {
                if (guarded) {
                    fence.admit(c, lease);
                }
                try (PreparedStatement write = c.prepareStatement("UPDATE seats SET buyer = ?, token = ? WHERE seat = '14C'")) {
                    write.setString(1, buyer);
                    write.setLong(2, lease.fencingToken().value());
                    write.executeUpdate();
                }
                c.commit();
                attempt.told(Outcome.CONFIRMED, "booked");
                return Outcome.CONFIRMED;
            } catch (StaleFencingTokenException refused) {
                c.rollback();
                attempt.told(Outcome.REJECTED, refused.getMessage());
                return Outcome.REJECTED;
            }
        } finally {
            lease.close();
        }
    }

    private CompletableFuture<Outcome> lenaBooksAndPauses(boolean guarded, WriteHistory history) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return book(lenasServer, "lena", SHORT, guarded, history);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void aHolderPausedPastItsLeaseIsRefusedAfterTheNextHolderBooked() throws Exception {
        WriteHistory history = new WriteHistory();
        Pause beforeWrite = pauses.holdFirst("seat-write");
        CompletableFuture<Outcome> lena = lenaBooksAndPauses(true, history);
        beforeWrite.awaitArrival();
        Pauses.awaitExpired(omarsServer, "seat:14C");
        assertThat(book(omarsServer, "omar", LONG, true, history)).isEqualTo(Outcome.CONFIRMED);
        beforeWrite.open();

        assertThat(lena.get(30, TimeUnit.SECONDS)).isEqualTo(Outcome.REJECTED);
        history.stored("seat 14C", WriteHistory.write(buyer(), token()));
        history.verify();
        assertThat(buyer()).isEqualTo("omar");
        assertThat(rejections).hasValue(1);
    }

    @Test
    void aHolderPausedPastItsLeaseIsRefusedEvenWhenNobodyHasWrittenSince() throws Exception {
        WriteHistory history = new WriteHistory();
        Pause beforeWrite = pauses.holdFirst("seat-write");
        CompletableFuture<Outcome> lena = lenaBooksAndPauses(true, history);
        beforeWrite.awaitArrival();
        Pauses.awaitExpired(omarsServer, "seat:14C");
        beforeWrite.open(); // nobody holds or wrote the seat since: a token-comparing fence would admit this write

        assertThat(lena.get(30, TimeUnit.SECONDS)).isEqualTo(Outcome.REJECTED);
        assertThat(buyer()).isNull();
        assertThat(book(omarsServer, "omar", LONG, true, history)).isEqualTo(Outcome.CONFIRMED);
        history.stored("seat 14C", WriteHistory.write(buyer(), token()));
        history.verify();
    }

    @Test
    void withoutTheFenceThePausedHolderOverwritesTheNextBookingAndTheHistorySaysSo() throws Exception {
        WriteHistory history = new WriteHistory();
        Pause beforeWrite = pauses.holdFirst("seat-write");
        CompletableFuture<Outcome> lena = lenaBooksAndPauses(false, history);
        beforeWrite.awaitArrival();
        Pauses.awaitExpired(omarsServer, "seat:14C");
        assertThat(book(omarsServer, "omar", LONG, false, history)).isEqualTo(Outcome.CONFIRMED);
        beforeWrite.open();

        assertThat(lena.get(30, TimeUnit.SECONDS)).isEqualTo(Outcome.CONFIRMED);
        history.stored("seat 14C", WriteHistory.write(buyer(), token()));
        assertThatThrownBy(history::verify).isInstanceOf(AssertionError.class).hasMessageContaining("omar");
    }

    @Test
    void theFenceAdmitsOnlyInsideATransactionAndWritesNothingOtherwise() throws Exception {
        LockLease lease = lenasServer.tryAcquire("seat:14C", LONG, OverlapImpact.BROKEN_PROMISE).orElseThrow();
        try (Connection c = database.dataSource().getConnection()) {
            assertThatThrownBy(() -> fence.admit(c, lease)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("auto-commit");
            c.setAutoCommit(false);
            assertThatThrownBy(() -> fence.admit(c, " ", lease.fencingToken()))
                    .isInstanceOf(IllegalArgumentException.class);
            fence.admit(c, lease);
            fence.admit(c, lease); // one grant may write many times
            c.rollback();
        }
        assertThat(rejections).hasValue(0);
        assertThat(lease.release()).isEqualTo(ReleaseOutcome.RELEASED);
    }

    private static String buyer() throws SQLException {
        return seatColumn("buyer");
    }

    private static long token() throws SQLException {
        String token = seatColumn("token");
        return token == null ? 0 : Long.parseLong(token);
    }

    private static String seatColumn(String column) throws SQLException {
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + column + " FROM seats WHERE seat = '14C'")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
