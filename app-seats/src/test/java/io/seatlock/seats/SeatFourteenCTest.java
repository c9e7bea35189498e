package io.seatlock.seats;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.lock.DistributedLock;
import io.seatlock.seats.booking.BookingService;
import io.seatlock.test.Pause;
import io.seatlock.test.Pauses;
import io.seatlock.test.WriteHistory;
import io.seatlock.test.WriteHistory.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.seatlock.test.WriteHistory.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The famous failure, made deterministic with seatlock's test kit: A takes the lock on 14C and sees it
 * free, then is held at the {@code seat-write} checkpoint until its lease has expired in Redis; B books
 * 14C for Omar; A wakes and writes for Lena. The referee must make A's write match 0 rows, and the
 * kit's {@link WriteHistory} checker must find one buyer. The unguarded variant shows the lock alone
 * double-books, and the checker says so: this test can fail.
 */
class SeatFourteenCTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatFourteenCTest");

    private final GreenMail mail = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
    private final SeatsDatabase db = new SeatsDatabase(servers);
    @RegisterExtension
    final Pauses pauses = new Pauses();
    private final WriteHistory history = new WriteHistory();
    private SeatsReplica a;
    private SeatsReplica b;

    @BeforeEach
    void startMail() {
        mail.start();
    }

    @AfterEach
    void stop() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        mail.stop();
    }

    private void startReplicas(boolean aUnguarded) {
        Map<String, String> shortHold = Map.of("seats.hold-ttl", "1s");
        a = SeatsReplica.startWith("server-a", servers, mail.getSmtp().getPort(), c -> {
            if (aUnguarded) {
                UnguardedReferee.install().accept(c);
            }
        }, shortHold);
        b = SeatsReplica.start("server-b", servers, mail.getSmtp().getPort(), shortHold);
    }

    private HttpResponse<String> replay(String seat) throws Exception {
        Pause beforeWrite = pauses.holdFirst(BookingService.BEFORE_SEAT_WRITE);
        WriteHistory.Attempt lenaAttempt = history.attempt("lena@example.com", "seat " + seat, 0);
        CompletableFuture<HttpResponse<String>> lena =
                CompletableFuture.supplyAsync(() -> a.book("concert", seat, "lena@example.com", "Lena"));
        beforeWrite.awaitArrival();
        history.note("A holds seat:concert:" + seat + ", saw the seat free, and stalls before its write");
        // A stays held (think GC pause) until its lock has expired in Redis.
        Pauses.awaitExpired(a.context().getBean(DistributedLock.class), "seat:concert:" + seat);
        history.note("A's lease expired in Redis while A is paused");

        WriteHistory.Attempt omarAttempt = history.attempt("omar@example.com", "seat " + seat, 0);
        HttpResponse<String> omar = b.book("concert", seat, "omar@example.com", "Omar");
        told(omarAttempt, omar);
        assertThat(omar.statusCode()).as(omar.body()).isEqualTo(201);

        beforeWrite.open();
        HttpResponse<String> lenaResponse = lena.get(10, TimeUnit.SECONDS);
        told(lenaAttempt, lenaResponse);
        await().atMost(Duration.ofSeconds(10)).until(db::outboxDrained);
        history.stored("seat " + seat, write(db.buyerOf("concert", seat), 0));
        return lenaResponse;
    }

    private static void told(WriteHistory.Attempt attempt, HttpResponse<String> response) {
        Outcome outcome = response.statusCode() == 201 ? Outcome.CONFIRMED
                : response.statusCode() == 409 ? Outcome.REJECTED : Outcome.UNKNOWN;
        attempt.told(outcome, Integer.toString(response.statusCode()));
    }

    @Test
    void theStaleHoldersWriteMatchesNoRowAndOmarKeepsHisSeat() throws Exception {
        startReplicas(false);

        HttpResponse<String> lena = replay("14C");

        assertThat(lena.statusCode()).isEqualTo(409);
        assertThat(lena.body()).contains("/problems/seat-taken").contains("14C was just taken");
        assertThat(a.counter("seats.booking", "outcome", "taken-at-write")).isEqualTo(1.0);
        assertThat(db.buyerOf("concert", "14C")).isEqualTo("omar@example.com");
        List<Map<String, Object>> bookings = db.bookings("concert", "14C");
        assertThat(bookings).singleElement().satisfies(row -> assertThat(row.get("buyer_email")).isEqualTo("omar@example.com"));
        assertThat(db.count("SELECT count(*) FROM email_outbox WHERE recipient = 'lena@example.com' AND subject LIKE '%14C%'")).isZero();
        assertThat(mail.getReceivedMessagesForDomain("omar@example.com")).hasSize(1);
        assertThat(mail.getReceivedMessagesForDomain("lena@example.com")).isEmpty();
        history.verify();
    }

    @Test
    void withoutTheConditionalWriteTheLockAloneDoubleBooks() throws Exception {
        startReplicas(true);

        HttpResponse<String> lena = replay("15C");

        // Both were told "confirmed"; Lena's write landed over Omar's. The lock did not prevent it.
        assertThat(lena.statusCode()).isEqualTo(201);
        assertThat(db.buyerOf("concert", "15C")).isEqualTo("lena@example.com");
        assertThat(mail.getReceivedMessagesForDomain("omar@example.com")).hasSize(1);
        assertThat(mail.getReceivedMessagesForDomain("lena@example.com")).hasSize(1);
        assertThatThrownBy(history::verify).hasMessageContaining("2 callers were told it was theirs")
                .hasMessageContaining("omar@example.com was told its write was done, but storage does not hold it")
                .hasMessageContaining("timeline:");
    }
}
