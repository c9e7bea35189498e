package io.seatlock.seats;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** 200 buyers, 20 seats, two replicas: every seat sold once, every 201 backed by a row and one e-mail. */
class OnSaleConcurrencyTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("OnSaleConcurrencyTest");

    private static final GreenMail mail = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
    private static SeatsReplica a;
    private static SeatsReplica b;
    private final SeatsDatabase db = new SeatsDatabase(servers);

    @BeforeAll
    static void start() {
        mail.start();
        a = SeatsReplica.start("server-a", servers, mail.getSmtp().getPort(), Map.of());
        b = SeatsReplica.start("server-b", servers, mail.getSmtp().getPort(), Map.of());
    }

    @AfterAll
    static void stop() {
        a.close();
        b.close();
        mail.stop();
    }

    private record Attempt(int buyer, String seat, HttpResponse<String> response) {
    }

    @Test
    void everySeatHasOneBuyerAndEveryLoserGetsAConflict() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(32);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Attempt>> futures = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            int buyer = i;
            String seat = (i % 20 + 1) + "T";
            SeatsReplica replica = i % 2 == 0 ? a : b;
            futures.add(pool.submit(() -> {
                go.await();
                return new Attempt(buyer, seat, replica.book("concert", seat, "buyer" + buyer + "@example.com",
                        "Buyer " + buyer));
            }));
        }
        go.countDown();
        List<Attempt> attempts = new ArrayList<>();
        for (Future<Attempt> f : futures) {
            attempts.add(f.get(2, TimeUnit.MINUTES));
        }
        pool.shutdown();

        List<Attempt> winners = attempts.stream().filter(x -> x.response().statusCode() == 201).toList();
        List<Attempt> losers = attempts.stream().filter(x -> x.response().statusCode() != 201).toList();
        assertThat(losers).allSatisfy(x -> {
            assertThat(x.response().statusCode()).isEqualTo(409);
            assertThat(x.response().body()).containsAnyOf("/problems/seat-busy", "/problems/seat-taken");
        });
        assertThat(db.count("SELECT count(*) FROM bookings WHERE event_id = 'concert' AND seat_label LIKE '%T'"))
                .isEqualTo(winners.size()).isEqualTo(20);
        Pattern bookingId = Pattern.compile("\"bookingId\":\"([0-9a-f-]+)\"");
        for (Attempt winner : winners) {
            Matcher m = bookingId.matcher(winner.response().body());
            assertThat(m.find()).isTrue();
            assertThat(db.count("SELECT count(*) FROM bookings WHERE id = ?::uuid AND seat_label = ? AND buyer_email = ?",
                    m.group(1), winner.seat(), "buyer" + winner.buyer() + "@example.com")).isEqualTo(1);
            assertThat(db.buyerOf("concert", winner.seat())).isEqualTo("buyer" + winner.buyer() + "@example.com");
        }
        await().atMost(Duration.ofSeconds(20)).until(db::outboxDrained);
        for (Attempt x : attempts) {
            int expected = x.response().statusCode() == 201 ? 1 : 0;
            assertThat(mail.getReceivedMessagesForDomain("buyer" + x.buyer() + "@example.com")).hasSize(expected);
        }
        assertThat(mail.getReceivedMessages()).hasSize(20);
    }
}
