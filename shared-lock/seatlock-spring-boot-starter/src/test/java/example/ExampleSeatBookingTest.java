package example;

import io.seatlock.lock.LockLease;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The seat-style use from outside: a holder that paused past its lease writes nothing over the next buyer. */
class ExampleSeatBookingTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ExampleSeatBookingTest");
    private final ExampleReplicas replicas = new ExampleReplicas(servers);

    @AfterEach
    void stop() {
        replicas.close();
    }

    @Test
    void aHolderPausedPastItsLeaseMatchesNoRowAndTheNextBuyerKeepsTheSeat() {
        ExampleApplication.SeatDesk a = replicas.start("replica-a").getBean(ExampleApplication.SeatDesk.class);
        ExampleApplication.SeatDesk b = replicas.start("replica-b").getBean(ExampleApplication.SeatDesk.class);
        JdbcTemplate db = new JdbcTemplate(servers.dataSource());

        LockLease lena = a.hold("14C", Duration.ofMillis(500)).orElseThrow();
        assertThat(b.hold("14C", Duration.ofSeconds(10))).as("someone is booking that seat").isEmpty();
        // A pauses past its lease; B's buyer gets the seat meanwhile
        await().atMost(Duration.ofSeconds(10)).until(() -> !lena.isValid());
        LockLease omar = await().atMost(Duration.ofSeconds(10))
                .until(() -> b.hold("14C", Duration.ofSeconds(10)), Optional::isPresent).orElseThrow();
        assertThat(b.write("14C", "omar")).isTrue();
        omar.close();

        assertThat(a.write("14C", "lena")).as("A wakes: 0 rows, 'just taken'").isFalse();
        lena.close();
        assertThat(db.queryForObject("SELECT buyer FROM example_seats WHERE id = '14C'", String.class)).isEqualTo("omar");
        assertThat(db.queryForObject("SELECT buyer FROM example_seats WHERE id = '14D'", String.class)).isNull();
    }

    /** The README's quick-start service: booked, just taken, or busy while another replica holds the seat. */
    @Test
    void theQuickStartServiceBooksOnceAndSaysBusyOrJustTakenOtherwise() {
        SeatService first = replicas.start("replica-c").getBean(SeatService.class);
        ExampleApplication.SeatDesk other = replicas.start("replica-d").getBean(ExampleApplication.SeatDesk.class);
        JdbcTemplate db = new JdbcTemplate(servers.dataSource());
        db.update("INSERT INTO example_seats (id) VALUES ('15A')"); // a seat of this test's own

        try (LockLease held = other.hold("15A", Duration.ofSeconds(30)).orElseThrow()) {
            assertThat(first.book("15A", "lena")).isEqualTo(SeatService.Outcome.BUSY);
            assertThat(db.queryForObject("SELECT buyer FROM example_seats WHERE id = '15A'", String.class)).isNull();
        }
        assertThat(first.book("15A", "omar")).isEqualTo(SeatService.Outcome.BOOKED);
        assertThat(first.book("15A", "lena")).isEqualTo(SeatService.Outcome.JUST_TAKEN);
        assertThat(db.queryForObject("SELECT buyer FROM example_seats WHERE id = '15A'", String.class)).isEqualTo("omar");
    }
}
