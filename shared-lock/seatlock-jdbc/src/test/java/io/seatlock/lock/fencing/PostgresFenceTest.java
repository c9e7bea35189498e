package io.seatlock.lock.fencing;

import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.localservers.IsolatedServers;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The fence is a referee only inside the transaction of the write it guards: its row lock orders two holders'
 * writes, and a write that rolls back takes its admission with it.
 */
class PostgresFenceTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("PostgresFenceTest");

    private final PostgresFence fence = new PostgresFence(LockListener.NOOP);

    @BeforeAll
    static void tables() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(new String(PostgresFenceTest.class.getClassLoader().getResourceAsStream(PostgresFence.DDL_RESOURCE)
                    .readAllBytes(), StandardCharsets.UTF_8));
            s.execute("CREATE TABLE ledger (id bigserial PRIMARY KEY, resource text NOT NULL, token bigint NOT NULL)");
        }
    }

    @Test
    void aConnectionInAutoCommitModeIsRefusedAndNothingIsAdmitted() throws Exception {
        try (Connection c = connect()) {
            assertThat(c.getAutoCommit()).isTrue();
            // Admitted on its own, the token would commit apart from the write: a stale holder admitted first could
            // still write after the newer holder's write, which the fence is there to prevent.
            assertThatThrownBy(() -> fence.admit(c, "autocommit", new FencingToken(7)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("auto-commit");
        }
        try (Connection c = connect()) {
            assertThat(fence.newest(c, "autocommit")).isEmpty();
        }
    }

    @Test
    void theNewerHolderWaitsForTheAdmittedOlderOnesWriteSoTheOlderNeverWritesAfterIt() throws Exception {
        try (Connection older = transaction(); Connection newer = transaction()) {
            fence.admit(older, "ordered", new FencingToken(5));
            CompletableFuture<Void> newerAdmitted = CompletableFuture.runAsync(() -> admit(newer, "ordered", 7));
            // The newer holder waits on the fence row the older one's open transaction holds.
            await().atMost(Duration.ofSeconds(30)).until(() -> waitingOnALock() == 1);
            assertThat(newerAdmitted).isNotDone();
            write(older, "ordered", 5);
            older.commit();
            newerAdmitted.get(30, TimeUnit.SECONDS);
            write(newer, "ordered", 7);
            newer.commit();

            // the older holder again, after the newer one wrote
            assertThatThrownBy(() -> fence.admit(older, "ordered", new FencingToken(5)))
                    .isInstanceOf(StaleFencingTokenException.class);
            older.rollback();
        }
        assertThat(ledger("ordered")).containsExactly(5L, 7L);
        try (Connection c = connect()) {
            assertThat(fence.newest(c, "ordered")).isEqualTo(OptionalLong.of(7));
        }
    }

    @Test
    void aWriteThatRollsBackTakesItsAdmissionWithIt() throws Exception {
        try (Connection c = transaction()) {
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
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                     + " AND wait_event_type = 'Lock'")) {
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
        return servers.dataSource().getConnection();
    }
}
