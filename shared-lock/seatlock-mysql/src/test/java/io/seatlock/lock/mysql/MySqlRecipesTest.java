package io.seatlock.lock.mysql;

import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.leader.Candidate;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.leader.LeaderWrite;
import io.seatlock.lock.migration.MigrationGate;
import io.seatlock.localservers.IsolatedMariaDb;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Leader election with fenced writes and the migration gate (Flyway), on MariaDB alone. */
class MySqlRecipesTest {

    @RegisterExtension
    static final IsolatedMariaDb database = new IsolatedMariaDb("MySqlRecipesTest");

    private final MySqlLocks locks = new MySqlLocks();
    private final List<AutoCloseable> elections = new ArrayList<>();

    @BeforeAll
    static void tables() throws Exception {
        try (MySqlLocks setup = new MySqlLocks()) {
            setup.lock(setup.pool(database), MySqlLockSettings.defaults(), LockListener.NOOP).createTable();
        }
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE ledger (epoch BIGINT, writer VARCHAR(20)) ENGINE = InnoDB");
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable election : elections) {
            election.close();
        }
        locks.close();
    }

    private LeaderElection candidate(String name) {
        MySqlLock lock = locks.lock(locks.pool(database), MySqlLockSettings.defaults().withInstanceId(name),
                LockListener.NOOP);
        LeaderElection election = LeaderElection.forGroup(lock, "ledger").candidate(name)
                .lease(Duration.ofSeconds(3)).retry(Duration.ofMillis(100)).build(new Candidate() {
                    @Override
                    public void onGranted(FencingToken epoch) {
                    }

                    @Override
                    public void onRevoked(FencingToken epoch) {
                    }
                });
        elections.add(0, election);
        return election;
    }

    @Test
    void oneLeaderWritesInItsEpochAndAnOldLeadersWriteIsRefusedByTheLeaseFence() throws Exception {
        MySqlLeaseFence fence = new MySqlLeaseFence(MySqlLockSettings.defaults(), LockListener.NOOP);
        LeaderElection a = candidate("a");
        LeaderElection b = candidate("b");
        a.start();
        await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
        b.start();
        assertThat(write(b, fence).wrote()).as("a follower writes nothing").isFalse();
        LeaderWrite<String> first = write(a, fence);
        assertThat(first.wrote()).isTrue();
        FencingToken oldEpoch = first.epoch().orElseThrow();

        // a's term passes to b behind its back (its lease row taken over), while a still believes it leads
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("UPDATE seatlock_leases SET expires_at = UTC_TIMESTAMP(6) WHERE name = '" + a.lockName() + "'");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> b.isLeader());
        try (Connection c = database.dataSource().getConnection()) {
            c.setAutoCommit(false);
            assertThatThrownBy(() -> fence.admit(c, a.lockName(), oldEpoch))
                    .isInstanceOf(StaleFencingTokenException.class).hasMessageContaining("newer grant");
            c.rollback();
        }
        LeaderWrite<String> second = write(b, fence);
        assertThat(second.epoch().orElseThrow().isNewerThan(oldEpoch)).isTrue();
        assertThat(ledger()).containsExactly(oldEpoch.value() + ":a", second.epoch().orElseThrow().value() + ":b");
    }

    private static LeaderWrite<String> write(LeaderElection election, MySqlLeaseFence fence) throws SQLException {
        try (Connection c = database.dataSource().getConnection()) {
            c.setAutoCommit(false);
            LeaderWrite<String> write = election.writeAsLeader(c, fence, epoch -> {
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO ledger VALUES (?, ?)")) {
                    insert.setLong(1, epoch.value());
                    insert.setString(2, election.candidate());
                    insert.executeUpdate();
                }
                return election.candidate();
            });
            c.commit();
            return write;
        }
    }

    private static List<String> ledger() throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT epoch, writer FROM ledger ORDER BY epoch")) {
            while (rs.next()) {
                rows.add(rs.getLong(1) + ":" + rs.getString(2));
            }
        }
        return rows;
    }

    @Test
    void threeReplicasPassTheGateOnceEachWhileTheMigrationKeepsItsConnections() throws Exception {
        List<CompletableFuture<Integer>> replicas = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            // one pool per replica, shared by its lock and its Flyway: the gate holds no connection while it holds the
            // lock, so a lease renewed during the migration borrows one only for each renewal
            HikariDataSource pool = locks.pool(database.jdbcUrl(), database, 3, Duration.ofSeconds(2));
            MySqlLock lock = locks.lock(pool, MySqlLockSettings.defaults().withInstanceId("replica-" + i),
                    LockListener.NOOP);
            // the lease table is there before the first migration: Flyway takes the database from version 0
            Flyway flyway = Flyway.configure().dataSource(pool).locations("classpath:db/mysql-gate")
                    .baselineOnMigrate(true).baselineVersion("0").load();
            MigrationGate gate = new MigrationGate(lock, Duration.ofMillis(600), Duration.ofSeconds(30), r -> { });
            replicas.add(CompletableFuture.supplyAsync(() -> {
                MigrateResult result = gate.pass(flyway);
                return result.migrationsExecuted;
            }));
        }
        List<Integer> executed = new ArrayList<>();
        for (CompletableFuture<Integer> replica : replicas) {
            executed.add(replica.get(60, TimeUnit.SECONDS));
        }
        assertThat(executed).containsExactlyInAnyOrder(1, 0, 0);
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM flyway_schema_history WHERE success AND type = 'SQL'")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
    }
}
