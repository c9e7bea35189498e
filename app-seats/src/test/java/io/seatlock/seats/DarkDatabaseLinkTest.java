package io.seatlock.seats;

import io.seatlock.test.FaultProxy;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GH-11 item 2: replica A's link to PostgreSQL goes dark in the middle of a booking, after its UPDATE took
 * the seat's row lock. A's request answers within its socket timeout; the server ends A's silent
 * transaction and frees the row lock; replica B's requests for the same seat each answer within the lock
 * timeout, and B gets the seat.
 */
class DarkDatabaseLinkTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("DarkDatabaseLinkTest");

    private static final Map<String, String> TIMEOUTS = Map.of(
            "spring.datasource.hikari.data-source-properties.socketTimeout", "3",
            "spring.datasource.hikari.data-source-properties.options",
            "-c statement_timeout=4000 -c lock_timeout=1500 -c idle_in_transaction_session_timeout=5000",
            "seats.relay.interval", "1h", "seats.hold-ttl", "2s");

    @Test
    void aDarkLinkCostsARequestItsTimeoutAndTheServerFreesTheDeadHoldersRowLock() throws Exception {
        JdbcTemplate db = new JdbcTemplate(servers.dataSource());
        Map<String, String> viaProxy = new java.util.HashMap<>(TIMEOUTS);
        try (FaultProxy link = new FaultProxy(servers.postgres().host(), servers.postgres().port())) {
            viaProxy.put("spring.datasource.url",
                    "jdbc:postgresql://127.0.0.1:" + link.port() + "/" + servers.database());
            try (SeatsReplica a = SeatsReplica.start("dark-a", servers, 1, viaProxy);
                 SeatsReplica b = SeatsReplica.start("healthy-b", servers, 1, TIMEOUTS)) {
                link.blackholeAfterClientSends("INSERT INTO email_outbox"); // the seat's row is locked by then
                        CompletableFuture<HttpResponse<String>> lena = CompletableFuture.supplyAsync(
                        () -> a.book("concert", "12F", "lena@example.com", "Lena"));
                await().atMost(Duration.ofSeconds(10)).until(() -> link.stalledReads() > 0 || lena.isDone());
                assertThat(db.queryForObject("""
                        SELECT count(*) FROM pg_locks l JOIN pg_stat_activity s ON s.pid = l.pid
                        WHERE s.datname = current_database() AND l.locktype = 'transactionid'
                          AND s.state LIKE 'idle in transaction%'""", Long.class))
                        .as("A's transaction holds its locks on the server while its link is dark").isPositive();

                // B asks for the same seat until it gets an answer other than "busy" or "unavailable"
                List<Duration> bTook = new ArrayList<>();
                List<HttpResponse<String>> answers = new ArrayList<>();
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    long t0 = System.nanoTime();
                    answers.add(b.book("concert", "12F", "omar@example.com", "Omar"));
                    bTook.add(Duration.ofNanos(System.nanoTime() - t0));
                    return answers.get(answers.size() - 1).statusCode() == 201;
                });
                HttpResponse<String> omar = answers.get(answers.size() - 1);
                assertThat(omar.statusCode()).as(omar.body()).isEqualTo(201);
                assertThat(bTook).as("each of B's requests bounded by the lock and statement timeouts")
                        .allSatisfy(t -> assertThat(t).isLessThan(Duration.ofSeconds(6)));
                HttpResponse<String> lenaAnswer = lena.get(30, TimeUnit.SECONDS);
                assertThat(lenaAnswer.statusCode()).as(lenaAnswer.body()).isEqualTo(503);
                assertThat(db.queryForObject("SELECT buyer_email FROM seats WHERE event_id = 'concert' AND label = '12F'",
                        String.class)).isEqualTo("omar@example.com");
                assertThat(db.queryForObject("""
                        SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
                        AND state LIKE 'idle in transaction%'""", Long.class))
                        .as("the server ended the dead holder's transaction").isZero();
                link.heal();
            }
        }
    }
}
