package example;

import io.seatlock.test.WriteHistory;
import io.seatlock.lock.slots.JobSlots;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.seatlock.test.WriteHistory.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Once per slot from outside: two replicas on a per-second cron record each fire time once. */
class ExampleOncePerSlotTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ExampleOncePerSlotTest");
    private final ExampleReplicas replicas = new ExampleReplicas(servers);

    @AfterEach
    void stop() {
        replicas.close();
    }

    @Test
    void eachCronSlotIsRunOnceAndNamedByItsFireTimeNotByWhenTheRunStarted() {
        replicas.startAll(List.of("replica-a", "replica-b"),
                "example.tick-cron=* * * * * *");
        JdbcTemplate db = new JdbcTemplate(servers.dataSource());
        await().atMost(Duration.ofSeconds(30))
                .until(() -> db.queryForObject("SELECT count(*) FROM example_ticks", Long.class) >= 3);
        replicas.close();

        List<Timestamp> ticks = db.queryForList("SELECT slot FROM example_ticks ORDER BY slot", Timestamp.class);
        List<Timestamp> runs = db.queryForList("SELECT slot FROM job_runs WHERE job_name = 'tick' ORDER BY slot",
                Timestamp.class);
        assertThat(ticks).as("one piece of work per claimed slot").isEqualTo(runs).doesNotHaveDuplicates();
        // a run's start time has milliseconds; a cron fire time of "* * * * * *" is a whole second
        assertThat(ticks).allSatisfy(slot -> assertThat(slot.toInstant().getNano()).isZero());
        assertThat(db.queryForList("SELECT DISTINCT runner FROM job_runs", String.class))
                .isSubsetOf("replica-a", "replica-b");
        // The kit's checker: one effective runner per slot, and the one the slot record names.
        WriteHistory history = new WriteHistory();
        for (Timestamp slot : ticks) {
            List<String> workers = db.queryForList("SELECT runner FROM example_ticks WHERE slot = ?", String.class, slot);
            history.stored("tick@" + slot.toInstant(), workers.stream().map(r -> write(r, 0)).toArray(WriteHistory.Write[]::new));
        }
        history.verify();

        JobSlots slots = new JobSlots(db, "late-replica");
        Instant done = ticks.get(0).toInstant();
        assertThat(slots.claim("tick", done)).as("a late replica firing for a done slot does nothing").isFalse();
        assertThatThrownBy(() -> slots.claimCurrent("tick")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not inside a cron");
    }
}
