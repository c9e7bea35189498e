package com.example.mariadbonly;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.test.Pause;
import io.seatlock.test.Pauses;
import io.seatlock.test.WriteHistory;
import io.seatlock.test.WriteHistory.Outcome;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.seatlock.test.WriteHistory.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The 14C story on MariaDB alone: guarded by the lease fence it passes; unguarded, WriteHistory names both buyers. */
@SpringBootTest
class MariaDbOnlyTest {

    @RegisterExtension
    final Pauses pauses = new Pauses();

    @Autowired DistributedLock lock;
    @Autowired Fence fence;
    @Autowired Tickets tickets;
    @Autowired JdbcTemplate jdbc;

    @BeforeEach
    void seat() {
        jdbc.update("DELETE FROM tickets");
        jdbc.update("INSERT INTO tickets (seat) VALUES ('14C')");
    }

    @Test
    void theLockAndTheFenceAreTheDatabasesOwn() {
        assertThat(fence.getClass().getSimpleName()).isEqualTo("MySqlLeaseFence");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM seatlock_leases", Integer.class)).isNotNull();
        System.out.println("mariadb-only ran its lock as " + lock);
    }

    @ParameterizedTest(name = "guarded={0}")
    @ValueSource(booleans = {true, false})
    void fourteenC(boolean guarded) throws Exception {
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
                (row, n) -> write(row.getString("holder"), 0)).toArray(WriteHistory.Write[]::new));

        if (guarded) {
            history.verify();                               // the fence refused Lena; Omar keeps 14C
            assertThat(jdbc.queryForObject("SELECT holder FROM tickets WHERE seat = '14C'", String.class))
                    .isEqualTo("omar");
        } else {
            assertThatThrownBy(history::verify).hasMessageContaining("2 callers were told it was theirs")
                    .hasMessageContaining("lena").hasMessageContaining("omar");
        }
    }
}
