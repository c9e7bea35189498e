package io.seatlock.lock.slots;

import io.seatlock.localservers.IsolatedMariaDb;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.TimeZone;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Once per slot on a real MariaDB: the record decides, in the claiming transaction, whatever the JVM's time zone. */
class MySqlJobSlotsTest {

    @RegisterExtension
    static final IsolatedMariaDb database = new IsolatedMariaDb("MySqlJobSlotsTest");
    private static final String DDL = "db/seatlock-mysql/R__seatlock_job_runs.sql";

    private final JdbcTemplate jdbc = new JdbcTemplate(database.dataSource());
    private final JobSlots replicaA = new JobSlots(jdbc, "replica-a");
    private final JobSlots replicaB = new JobSlots(new JdbcTemplate(database.dataSource()), "replica-b");

    @BeforeAll
    static void tables() throws Exception {
        JdbcTemplate setup = new JdbcTemplate(database.dataSource());
        setup.execute(new String(MySqlJobSlotsTest.class.getClassLoader().getResourceAsStream(DDL).readAllBytes(),
                StandardCharsets.UTF_8));
        setup.execute("CREATE TABLE payments (job VARCHAR(100), slot_note VARCHAR(100)) ENGINE = InnoDB");
    }

    @Test
    void aSlotIsClaimedOnceAndReadBackAsTheSameInstant() {
        Instant slot = Instant.parse("2026-12-07T03:00:00.123456Z");
        assertThat(replicaA.claim("nightly", slot)).isTrue();
        assertThat(replicaB.claim("nightly", slot)).isFalse();
        assertThat(replicaB.claim("nightly", slot.plusSeconds(60))).isTrue();
        assertThat(replicaA.recent(10)).filteredOn(run -> run.job().equals("nightly"))
                .extracting(JobSlots.SlotRun::slot, JobSlots.SlotRun::runner)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(slot.plusSeconds(60), "replica-b"),
                        org.assertj.core.groups.Tuple.tuple(slot, "replica-a"));
        assertThat(replicaA.recent(10).get(0).startedAt()).isCloseTo(Instant.now(),
                org.assertj.core.api.Assertions.within(1, ChronoUnit.MINUTES));
    }

    @Test
    void replicasInOtherTimeZonesNameTheSameSlot() {
        Instant slot = Instant.parse("2026-12-07T04:00:00Z");
        TimeZone before = TimeZone.getDefault();
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("America/New_York"));
            assertThat(replicaA.claim("zoned", slot)).isTrue();
            TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
            assertThat(replicaB.claim("zoned", slot)).as("the same instant, another zone").isFalse();
        } finally {
            TimeZone.setDefault(before);
        }
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM job_runs WHERE job_name = 'zoned' "
                + "AND slot = '2026-12-07 04:00:00'", Integer.class)).as("kept in UTC").isOne();
    }

    @Test
    void aTakenSlotLeavesTheClaimingTransactionGoingAndItsWritesUnmade() {
        Instant slot = Instant.parse("2026-12-07T05:00:00Z");
        assertThat(replicaA.claim("payments", slot)).isTrue();
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(database.dataSource()));
        JobSlots inTransaction = new JobSlots(new JdbcTemplate(database.dataSource()), "replica-b");
        Boolean ran = tx.execute(status -> {
            if (!inTransaction.claim("payments", slot)) {
                return false; // someone ran this slot: charge nothing
            }
            new JdbcTemplate(database.dataSource()).update("INSERT INTO payments VALUES ('payments', 'charged')");
            return true;
        });
        assertThat(ran).isFalse();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM payments", Integer.class)).isZero();
    }

    @Test
    void aClaimInFlightMakesTheSecondClaimWaitThenFindTheSlotTaken() throws Exception {
        Instant slot = Instant.parse("2026-12-07T06:00:00Z");
        DataSource first = new SingleConnectionDataSource(database.dataSource().getConnection(), true);
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(first));
        CountDownLatch claimed = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        CompletableFuture<Boolean> firstClaim = CompletableFuture.supplyAsync(() -> tx.execute(status -> {
            boolean mine = new JobSlots(new JdbcTemplate(first), "replica-a").claim("in-flight", slot);
            claimed.countDown();
            try {
                commit.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return mine;
        }));
        assertThat(claimed.await(30, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Boolean> secondClaim = CompletableFuture.supplyAsync(() -> replicaB.claim("in-flight", slot));
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'", Integer.class) == 1);
        assertThat(secondClaim).isNotDone();
        commit.countDown();
        assertThat(firstClaim.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(secondClaim.get(30, TimeUnit.SECONDS)).isFalse();
        ((SingleConnectionDataSource) first).destroy();
    }

    /**
     * Two claims wait for a third still in flight; when it rolls back, InnoDB lets one in and ends the other as a
     * deadlock: that one is told so (an exception, its transaction rolled back), never that it owns the slot.
     */
    @Test
    void aDeadlockInnoDbBreaksBetweenTwoWaitingClaimsLeavesOneOwnerAndTellsTheOther() throws Exception {
        Instant slot = Instant.parse("2026-12-07T07:00:00Z");
        try (java.sql.Connection first = database.dataSource().getConnection()) {
            first.setAutoCommit(false);
            try (java.sql.PreparedStatement insert = first.prepareStatement(
                    "INSERT INTO job_runs (job_name, slot, runner) VALUES ('contended', ?, 'replica-z')")) {
                insert.setObject(1, java.time.LocalDateTime.ofInstant(slot, java.time.ZoneOffset.UTC));
                insert.executeUpdate();
            }
            CompletableFuture<Boolean> a = CompletableFuture.supplyAsync(() -> replicaA.claim("contended", slot));
            CompletableFuture<Boolean> b = CompletableFuture.supplyAsync(() -> replicaB.claim("contended", slot));
            await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                    "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'", Integer.class) == 2);
            first.rollback();
            java.util.List<Object> answers = new java.util.ArrayList<>();
            for (CompletableFuture<Boolean> claim : java.util.List.of(a, b)) {
                try {
                    answers.add(claim.get(30, TimeUnit.SECONDS));
                } catch (java.util.concurrent.ExecutionException e) {
                    answers.add(e.getCause().getClass().getSimpleName());
                }
            }
            assertThat(answers).as("one owner; the other told false or of the deadlock, never true")
                    .containsOnlyOnce(true).doesNotContainNull().hasSize(2);
            String owner = jdbc.queryForObject("SELECT runner FROM job_runs WHERE job_name = 'contended'", String.class);
            assertThat(owner).isEqualTo(answers.get(0).equals(true) ? "replica-a" : "replica-b");
        }
    }
}
