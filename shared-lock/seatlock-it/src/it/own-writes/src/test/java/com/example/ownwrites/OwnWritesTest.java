package com.example.ownwrites;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.fencing.PostgresFence;
import io.seatlock.lock.leader.Candidate;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.test.Pause;
import io.seatlock.test.Pauses;
import io.seatlock.test.WriteHistory;
import io.seatlock.test.WriteHistory.Outcome;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.seatlock.test.WriteHistory.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The 14C story, a scheduled job and a leader's write, each guarded (passes) and unguarded (caught). */
@SpringBootTest
class OwnWritesTest {

// tag::pauses[]
    @RegisterExtension
    final Pauses pauses = new Pauses();             // holds threads at checkpoints; opens every pause after each test
// end::pauses[]

    @Autowired DistributedLock lock;
    @Autowired Tickets tickets;
    @Autowired Captures captures;
    @Autowired Ledger ledger;
    @Autowired JdbcTemplate jdbc;

    @BeforeEach
    void tables() throws Exception {
        jdbc.execute(new ClassPathResource("db/seatlock/R__seatlock_job_runs.sql").getContentAsString(StandardCharsets.UTF_8));
        jdbc.execute(new ClassPathResource(PostgresFence.DDL_RESOURCE).getContentAsString(StandardCharsets.UTF_8));
        jdbc.update("TRUNCATE tickets, captures, ledger, job_runs, lock_fences");
        jdbc.update("INSERT INTO tickets (seat) VALUES ('14C')");
    }

    @ParameterizedTest(name = "guarded={0}")
    @ValueSource(booleans = {true, false})
    void fourteenC(boolean guarded) throws Exception {
// tag::fourteen-c[]
        WriteHistory history = new WriteHistory();
        Pause beforeWrite = pauses.holdFirst(Tickets.BEFORE_WRITE);
        var lena = CompletableFuture.supplyAsync(() -> tickets.claim("14C", "lena", Duration.ofSeconds(1), guarded));
        beforeWrite.awaitArrival();                         // A holds the lock and stands before its write
        Pauses.awaitExpired(lock, "ticket:14C");            // its lease runs out while it is paused
        var omar = history.attempt("omar", "14C", 0);
        omar.told(tickets.claim("14C", "omar", Duration.ofSeconds(1), guarded) ? Outcome.CONFIRMED : Outcome.REJECTED, "B");
        var lenaAttempt = history.attempt("lena", "14C", 0);
        beforeWrite.open();                                 // A wakes and writes
        lenaAttempt.told(lena.get(30, TimeUnit.SECONDS) ? Outcome.CONFIRMED : Outcome.REJECTED, "A");
        history.stored("14C", jdbc.query("SELECT holder FROM tickets WHERE seat = '14C' AND holder IS NOT NULL",
                (row, n) -> write(row.getString("holder"), 0)).toArray(WriteHistory.Write[]::new)); // none if unwritten
// end::fourteen-c[]

        if (guarded) {
            history.verify();                               // zero rows for Lena, Omar keeps 14C
        } else {
            assertThatThrownBy(history::verify).hasMessageContaining("2 callers were told it was theirs")
                    .hasMessageContaining("timeline:");
        }
    }

    @ParameterizedTest(name = "guarded={0}")
    @ValueSource(booleans = {true, false})
    void aPausedJobRunDoesNotCaptureTheSlotTwice(boolean guarded) throws Exception {
        Instant slot = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Pause beforeWrite = pauses.holdFirst(Captures.BEFORE_WRITE);
        var first = CompletableFuture.supplyAsync(() -> captures.run(slot, "replica-a", Duration.ofSeconds(1), guarded));
        beforeWrite.awaitArrival();
        Pauses.awaitExpired(lock, "capture");
        assertThat(captures.run(slot, "replica-b", Duration.ofSeconds(1), guarded)).isTrue();
        beforeWrite.open();
        first.handle((captured, error) -> null).get(30, TimeUnit.SECONDS); // its lease was lost: it may throw

        WriteHistory history = new WriteHistory();
        history.stored("capture@" + slot, jdbc.query("SELECT runner FROM captures ORDER BY runner",
                (rs, i) -> write(rs.getString(1), 0)).toArray(WriteHistory.Write[]::new));
        if (guarded) {
            history.verify();
        } else {
            assertThatThrownBy(history::verify).hasMessageContaining("2 effective writers");
        }
    }

    @ParameterizedTest(name = "guarded={0}")
    @ValueSource(booleans = {true, false})
    void aLeaderWhoseTermPassedWritesNothing(boolean guarded) throws Exception {
        LeaderElection a = election("leader-a", Duration.ofMillis(4900)); // campaigns again only after ~5 s
        LeaderElection b = election("leader-b", Duration.ofMillis(100));
        WriteHistory history = new WriteHistory().sequence("ledger");
        try (a; b) {
            a.start();
            await().atMost(Duration.ofSeconds(30)).until(a::isLeader);
            b.start();
            FencingToken oldEpoch = a.epoch().orElseThrow();
            Pause beforeWrite = pauses.holdFirst(Ledger.BEFORE_WRITE);
            var stale = CompletableFuture.runAsync(() -> ledger.write(a, oldEpoch, guarded));
            beforeWrite.awaitArrival();
            a.yieldLeadership();                                   // a's term passes to b while a is paused
            await().atMost(Duration.ofSeconds(30)).until(b::isLeader);
            FencingToken newEpoch = b.epoch().orElseThrow();
            history.attempt("leader-b", "ledger", newEpoch.value());
            ledger.write(b, newEpoch, guarded);
            var staleAttempt = history.attempt("leader-a", "ledger", oldEpoch.value());
            beforeWrite.open();
            stale.handle((ok, error) -> staleAttempt.told(error == null ? Outcome.CONFIRMED : Outcome.REJECTED,
                    String.valueOf(error))).get(30, TimeUnit.SECONDS);
            history.stored("ledger", jdbc.query("SELECT leader, epoch FROM ledger ORDER BY id",
                    (rs, i) -> write(rs.getString(1), rs.getLong(2))).toArray(WriteHistory.Write[]::new));
        }
        if (guarded) {
            history.verify();
            assertThat(jdbc.queryForList("SELECT leader FROM ledger", String.class)).containsExactly("leader-b");
        } else {
            assertThatThrownBy(history::verify).hasMessageContaining("was accepted after the newer token");
        }
    }

    private LeaderElection election(String candidate, Duration retry) {
        return LeaderElection.forGroup(lock, "ledger").candidate(candidate)
                .lease(Duration.ofSeconds(5)).retry(retry).build(new Candidate() {
                    @Override
                    public void onGranted(FencingToken epoch) {
                    }

                    @Override
                    public void onRevoked(FencingToken epoch) {
                    }
                });
    }
}
