package io.seatlock.lock.fencing;

import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.localservers.IsolatedMariaDb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The MySQL fence on a real MariaDB, a referee only inside the transaction of the write it guards: its row lock
 * orders two holders' writes, a write that rolls back takes its admission with it, and REPEATABLE READ's snapshot
 * does not hide a newer token.
 */
class MySqlFenceTest {

    @RegisterExtension
    static final IsolatedMariaDb database = new IsolatedMariaDb("MySqlFenceTest");

    private final AtomicInteger refused = new AtomicInteger();
    private final MySqlFence fence = new MySqlFence(new LockListener() {
        @Override
        public void onFencingRejected(String resource) {
            refused.incrementAndGet();
        }
    });

    @BeforeAll
    static void tables() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(new String(MySqlFenceTest.class.getClassLoader().getResourceAsStream(MySqlFence.DDL_RESOURCE)
                    .readAllBytes(), StandardCharsets.UTF_8));
            s.execute("CREATE TABLE ledger (id BIGINT AUTO_INCREMENT PRIMARY KEY, resource VARCHAR(100) NOT NULL, "
                    + "token BIGINT NOT NULL) ENGINE = InnoDB");
        }
    }

    @Test
    void aConnectionInAutoCommitModeIsRefusedAndNothingIsAdmitted() throws Exception {
        try (Connection c = connect()) {
            assertThatThrownBy(() -> fence.admit(c, "autocommit", new FencingToken(7)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("auto-commit");
            assertThat(fence.newest(c, "autocommit")).isEmpty();
        }
    }

    @Test
    void theNewerHolderWaitsForTheAdmittedOlderOnesWriteSoTheOlderNeverWritesAfterIt() throws Exception {
        try (Connection older = transaction(); Connection newer = transaction()) {
            fence.admit(older, "ordered", new FencingToken(5));
            CompletableFuture<Void> newerAdmitted = CompletableFuture.runAsync(() -> admit(newer, "ordered", 7));
            await().atMost(Duration.ofSeconds(30)).until(() -> waitingOnALock() == 1);
            assertThat(newerAdmitted).isNotDone();
            write(older, "ordered", 5);
            older.commit();
            newerAdmitted.get(30, TimeUnit.SECONDS);
            write(newer, "ordered", 7);
            newer.commit();

            // the older holder again, after the newer one wrote: refused, naming the newer token
            assertThatThrownBy(() -> fence.admit(older, "ordered", new FencingToken(5)))
                    .isInstanceOf(StaleFencingTokenException.class).hasMessageContaining("7");
            older.rollback();
        }
        assertThat(ledger("ordered")).containsExactly(5L, 7L);
        assertThat(refused).hasValue(1);
        try (Connection c = connect()) {
            assertThat(fence.newest(c, "ordered")).isEqualTo(OptionalLong.of(7));
        }
    }

    @Test
    void aSnapshotTakenBeforeTheNewerHolderCommittedDoesNotHideIt() throws Exception {
        try (Connection older = transaction()) {
            older.createStatement().executeQuery("SELECT count(*) FROM ledger").close(); // REPEATABLE READ: snapshot now
            try (Connection newer = transaction()) {
                fence.admit(newer, "snapshot", new FencingToken(9));
                newer.commit();
            }
            assertThatThrownBy(() -> fence.admit(older, "snapshot", new FencingToken(8)))
                    .isInstanceOf(StaleFencingTokenException.class);
            older.rollback();
        }
    }

    @Test
    void equalTokensAreAdmittedAndAWriteThatRollsBackTakesItsAdmissionWithIt() throws Exception {
        try (Connection c = transaction()) {
            fence.admit(c, "rolled-back", new FencingToken(3));
            fence.admit(c, "rolled-back", new FencingToken(3));
            c.commit();
            fence.admit(c, "rolled-back", new FencingToken(9));
            c.rollback();
            fence.admit(c, "rolled-back", new FencingToken(4)); // 9 never counted
            c.commit();
            assertThat(fence.newest(c, "rolled-back")).isEqualTo(OptionalLong.of(4));
        }
    }

    private void admit(Connection c, String resource, long token) {
        try {
            fence.admit(c, resource, new FencingToken(token));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void write(Connection c, String resource, long token) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO ledger (resource, token) VALUES (?, ?)")) {
            insert.setString(1, resource);
            insert.setLong(2, token);
            insert.executeUpdate();
        }
    }

    private static List<Long> ledger(String resource) throws SQLException {
        try (Connection c = connect();
             PreparedStatement select = c.prepareStatement("SELECT token FROM ledger WHERE resource = ? ORDER BY id")) {
            select.setString(1, resource);
            List<Long> tokens = new ArrayList<>();
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    tokens.add(rs.getLong(1));
                }
            }
            return tokens;
        }
    }

    private static int waitingOnALock() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.INNODB_TRX "
                     + "WHERE trx_state = 'LOCK WAIT'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static Connection transaction() throws SQLException {
        Connection c = connect();
        c.setAutoCommit(false);
        return c;
    }

    private static Connection connect() throws SQLException {
        return database.dataSource().getConnection();
    }
}
