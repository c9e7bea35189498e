package io.seatlock.seats;

import io.seatlock.lock.redis.RedisKeys;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.seats.booking.RefereeStatements;
import io.seatlock.seats.booking.SeatWriteHook;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The famous failure, made deterministic: A takes the lock on 14C and sees it free, then stalls
 * right before its write until its lease has expired; B books 14C for Omar; A wakes and writes for
 * Lena. The referee must make A's write match 0 rows. The unguarded variant shows the lock alone
 * would have double-booked, so this test can fail.
 */
class SeatFourteenCTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatFourteenCTest");

    private final GreenMail mail = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
    private final SeatsDatabase db = new SeatsDatabase(servers);
    private final CountDownLatch aLookedAndSawFree = new CountDownLatch(1);
    private final CountDownLatch wakeA = new CountDownLatch(1);
    private final SeatWriteHook stallA = (seat, request) -> {
        aLookedAndSawFree.countDown();
        try {
            wakeA.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    };
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
            c.registerBean(SeatWriteHook.class, () -> stallA);
            if (aUnguarded) {
                c.registerBean(RefereeStatements.class, () -> UnguardedReferee.STATEMENTS);
            }
        }, shortHold);
        b = SeatsReplica.start("server-b", servers, mail.getSmtp().getPort(), null, shortHold);
    }

    private HttpResponse<String> replay(String seat) throws Exception {
        CompletableFuture<HttpResponse<String>> lena =
                CompletableFuture.supplyAsync(() -> a.book("concert", seat, "lena@example.com", "Lena"));
        assertThat(aLookedAndSawFree.await(10, TimeUnit.SECONDS)).isTrue();
        // A stalls (think GC pause) until its lock has expired in Redis.
        await().atMost(Duration.ofSeconds(5))
                .until(() -> servers.redis().with(r -> r.exists(new RedisKeys(servers.keyPrefix()).lock("seat:concert:" + seat))) == 0);

        HttpResponse<String> omar = b.book("concert", seat, "omar@example.com", "Omar");
        assertThat(omar.statusCode()).as(omar.body()).isEqualTo(201);

        wakeA.countDown();
        HttpResponse<String> lenaResponse = lena.get(10, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(10)).until(db::outboxDrained);
        return lenaResponse;
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
    }
}
