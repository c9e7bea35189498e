package io.seatlock.seats;

import io.seatlock.lock.redis.RedisKeys;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.seatlock.test.FaultProxy;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The HTTP contract: statuses, problem bodies, and that bad input writes nothing. */
class BookingApiTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("BookingApiTest");

    private static final GreenMail mail = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
    private static SeatsReplica app;
    private final SeatsDatabase db = new SeatsDatabase(servers);

    @BeforeAll
    static void start() {
        mail.start();
        // The relay is parked so that every PostgreSQL connection checkout is a request's own.
        app = SeatsReplica.start("api", servers, mail.getSmtp().getPort(), Map.of("seats.relay.interval", "1h"));
    }

    @AfterAll
    static void stop() {
        app.close();
        mail.stop();
    }

    private long rows() {
        return db.count("SELECT (SELECT count(*) FROM bookings) + (SELECT count(*) FROM email_outbox) "
                + "+ (SELECT count(*) FROM seats WHERE buyer_email IS NOT NULL)");
    }

    private Set<String> redisKeys() {
        return Set.copyOf(servers.redis().with(r -> r.keys(servers.keyPrefix() + "*")));
    }

    @Test
    void booksAndShowsTheSeat() {
        HttpResponse<String> booked = app.book("concert", "1A", "ada@example.com", "Ada");
        assertThat(booked.statusCode()).isEqualTo(201);
        assertThat(booked.body()).contains("\"seat\":\"1A\"", "\"fencingToken\":", "\"bouncer\":\"up\"");
        assertThat(booked.headers().firstValue("Location")).hasValue("/api/events/concert/seats/1A");
        assertThat(db.buyerOf("concert", "1A")).isEqualTo("ada@example.com");

        HttpResponse<String> seat = app.get("/api/events/concert/seats/1A");
        assertThat(seat.body()).contains("\"status\":\"BOOKED\"", "\"buyerName\":\"Ada\"").doesNotContain("ada@example.com");
        assertThat(app.get("/api/events/concert/seats").body()).contains("{\"seat\":\"1A\",\"status\":\"BOOKED\"}",
                "{\"seat\":\"2A\",\"status\":\"FREE\"}");
        assertThat(app.get("/api/events").body()).contains("\"id\":\"concert\"");

        long soldMarkers = servers.redis().with(r -> r.exists(new RedisKeys(servers.keyPrefix()).decided("seat:concert:1A")));
        assertThat(soldMarkers).isEqualTo(1L);
        double decidedBefore = app.counter("seatlock.lock.decided", "seatlock.lock.group", "seat");
        HttpResponse<String> again = app.book("concert", "1A", "bob@example.com", "Bob");
        assertThat(again.statusCode()).isEqualTo(409);
        // (Pool checkouts are not compared: the outbox relay may check one out at any moment.)
        assertThat(app.counter("seatlock.lock.decided", "seatlock.lock.group", "seat")).as("answered from Redis' decided marker")
                .isEqualTo(decidedBefore + 1);
        assertThat(again.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(again.body()).contains("/problems/seat-taken");
    }

    @Test
    void aHeldSeatIsBusyAnsweredFromRedisWithRetryAfter() {
        servers.redis().with(r -> r.set(new RedisKeys(servers.keyPrefix()).lock("seat:concert:3A"), "someone-else",
                io.lettuce.core.SetArgs.Builder.px(8000)));
        assertThat(app.get("/api/events/concert/seats/3A").body()).contains("\"status\":\"HELD\"");
        long before = rows();

        HttpResponse<String> busy = app.book("concert", "3A", "cy@example.com", "Cy");

        assertThat(busy.statusCode()).isEqualTo(409);
        assertThat(busy.body()).contains("/problems/seat-busy", "someone is booking seat 3A");
        assertThat(busy.headers().firstValue("Retry-After")).hasValueSatisfying(v ->
                assertThat(Integer.parseInt(v)).isBetween(1, 8));
        assertThat(rows()).isEqualTo(before);
        assertThat(app.counter("seats.booking", "outcome", "seat-busy")).isEqualTo(1.0);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "concert|4A|{\"buyer\":\"not-an-email\",\"name\":\"X\"}",
            "concert|4A|{\"buyer\":\"\",\"name\":\"X\"}",
            "concert|4A|{\"buyer\":\"x@example.com\",\"name\":\"\"}",
            "concert|4A|{\"buyer\":\"x@example.com\"}",
            "concert|4A|{\"buyer\":\"x@example.com\",\"name\":\"<script>alert(1)</script>\"}",
            "concert|4A|{\"buyer\":\"x@example.com',--\",\"name\":\"X\"}",
            "concert|4A|{\"buyer\":42,\"name\":[]}",
            "concert|4A|{\"buyer\":",
            "concert|4A|not json at all",
            "concert|14c|{\"buyer\":\"x@example.com\",\"name\":\"X\"}",
            "concert|A14|{\"buyer\":\"x@example.com\",\"name\":\"X\"}",
            "concert|123456A|{\"buyer\":\"x@example.com\",\"name\":\"X\"}",
            "concert|1ABC|{\"buyer\":\"x@example.com\",\"name\":\"X\"}",
            "Concert!|4A|{\"buyer\":\"x@example.com\",\"name\":\"X\"}"})
    void badInputIs400WithAProblemAndWritesNothing(String event, String seat, String body) {
        assertThat(refusedWritingNothing(() -> app.book(event, seat, body)).body()).contains("\"status\":400");
    }

    /** {@code request}'s answer, a 400 problem; nothing was written: no row, no Redis key. */
    private HttpResponse<String> refusedWritingNothing(Supplier<HttpResponse<String>> request) {
        long before = rows();
        Set<String> keysBefore = redisKeys();
        HttpResponse<String> response = request.get();
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(rows()).isEqualTo(before);
        assertThat(keysBefore).as("no new Redis keys (some may expire meanwhile)").containsAll(redisKeys());
        return response;
    }

    @ParameterizedTest // GH-11 item 8
    @ValueSource(strings = {"{", "", "[]", "{\"buyer\":", "\"just a string\""})
    void unreadableBodiesAre400WithTheirOwnProblemType(String body) {
        long before = rows();
        HttpResponse<String> response = app.book("concert", "4A", body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"type\":\"/problems/unreadable-body\"");
        assertThat(rows()).isEqualTo(before);
    }

    /**
     * A field of another JSON type is not read as text (Jackson would take {@code 123} as "123" and book the seat for
     * a buyer named 123), nor a field given twice (the last would win unseen).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"buyer\":\"x@example.com\",\"name\":123}|invalid-request|\"name\":\"must be a JSON string\"",
            "{\"buyer\":\"x@example.com\",\"name\":true}|invalid-request|\"name\":\"must be a JSON string\"",
            "{\"buyer\":\"x@example.com\",\"name\":1.5e3}|invalid-request|\"name\":\"must be a JSON string\"",
            "{\"buyer\":\"x@example.com\",\"name\":{\"first\":\"X\"}}|invalid-request|\"name\":\"must be a JSON string\"",
            "{\"buyer\":\"x@example.com\",\"name\":\"Xavier\",\"name\":\"Yann\"}|unreadable-body|each field once",
            "{\"buyer\":\"x@example.com\",\"name\":\"\u202eXavier\"}|invalid-request|\"name\":\"must not contain control characters"})
    void fieldsOfAnotherTypeOrGivenTwiceAre400AndWriteNothing(String body, String type, String says) {
        assertThat(refusedWritingNothing(() -> app.book("concert", "4B", body)).body())
                .contains("\"type\":\"/problems/" + type + "\"", says);
        assertThat(db.buyerOf("concert", "4B")).isNull();
    }

    /**
     * A key that is not one key: two header lines (which the servlet API joins with a comma, so the booking would be
     * kept under "k1,k2", a key the client never sent), a space, over 100 characters, a comma; the same for a lookup.
     */
    @Test
    void anIdempotencyKeyThatIsNotOneKeyIs400AndWritesNothing() {
        String body = "{\"buyer\":\"x@example.com\",\"name\":\"X\"}";
        long before = rows();
        Set<String> keysBefore = redisKeys();
        List<HttpResponse<String>> refused = List.of(
                app.postBooking("concert", "4C", body, "Idempotency-Key", "k1", "Idempotency-Key", "k2"),
                app.postBooking("concert", "4C", body, "Idempotency-Key", "k1 k2"),
                app.postBooking("concert", "4C", body, "Idempotency-Key", "k1,k2"),
                app.postBooking("concert", "4C", body, "Idempotency-Key", "k".repeat(101)),
                app.postBooking("concert", "4C", body, "Idempotency-Key", ""),
                app.get("/api/bookings?idempotency-key=k1&idempotency-key=k2"),
                app.get("/api/bookings?idempotency-key=k1,k2"));
        assertThat(refused).allSatisfy(response -> {
            assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
            assertThat(response.body()).contains("\"type\":\"/problems/invalid-request\"", "Idempotency-Key must be");
        });
        assertThat(rows()).isEqualTo(before);
        assertThat(db.buyerOf("concert", "4C")).isNull();
        assertThat(keysBefore).as("no new Redis keys (some may expire meanwhile)").containsAll(redisKeys());
        assertThat(app.postBooking("concert", "4C", body, "Idempotency-Key", "k1").statusCode()).isEqualTo(201);
        assertThat(app.get("/api/bookings?idempotency-key=k1").body()).contains("\"seat\":\"4C\"");
    }

    /** Paths Tomcat refuses before any servlet sees them (an encoded slash, backslash or NUL) get a problem too. */
    @ParameterizedTest
    @ValueSource(strings = {"/api/events/concert/seats/%00", "/api/events/concert/seats/..%2F..%2Fetc",
            "/api/events/concert/seats/%5C", "/api/events/concert/seats/4D%2F..%2F4E/booking"})
    void pathsTheServerRefusesItselfAre400WithAProblem(String path) {
        long before = rows();
        for (HttpResponse<String> response : List.of(app.get(path),
                app.post(path, "{\"buyer\":\"x@example.com\",\"name\":\"X\"}"))) {
            assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(response.body()).contains("\"type\":\"/problems/invalid-request\"", "\"status\":400")
                    .doesNotContain("<html");
        }
        assertThat(rows()).isEqualTo(before);
    }

    /** A Host header Tomcat cannot read: a 400 problem that says so (it said the request had failed unexpectedly). */
    @Test
    void aMalformedHostHeaderIs400WithAProblem() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", app.uri("/").getPort())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write("GET /api/events HTTP/1.1\r\nHost: bad host\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(response).startsWith("HTTP/1.1 400").contains("Content-Type: application/problem+json",
                    "\"type\":\"/problems/invalid-request\"", "refused the request").doesNotContain("unexpectedly");
        }
    }

    /**
     * Errors the servlet container answers inside the application (a TRACE, which Tomcat refuses) are problems too, and
     * {@code /error} is no page of its own: Spring Boot's error page answered both with {"timestamp", "error"}, and
     * {@code /error} with a 500.
     */
    @Test
    void errorsTheContainerAnswersAreProblemsAndErrorIsNoPage() {
        HttpResponse<String> trace = SeatsReplica.send(HttpRequest.newBuilder(app.uri("/api/events"))
                .method("TRACE", HttpRequest.BodyPublishers.noBody()).build());
        assertThat(trace.statusCode()).isEqualTo(405);
        assertThat(trace.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(trace.body()).contains("\"type\":\"/problems/method-not-allowed\"", "\"status\":405");
        HttpResponse<String> error = app.get("/error");
        assertThat(error.statusCode()).isEqualTo(404);
        assertThat(error.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(error.body()).contains("\"type\":\"/problems/not-found\"");
    }

    /** The stream asked for as JSON is not acceptable; it answered that "stream" is no seat label. */
    @Test
    void theMapStreamAskedForAsJsonIsNotAcceptable() {
        HttpResponse<String> response = app.get("/api/events/concert/seats/stream", "Accept", "application/json");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(406);
        assertThat(response.body()).contains("\"type\":\"/problems/not-acceptable\"");
        assertThat(app.get("/api/events/concert/seats/1A", "Accept", "application/json").statusCode()).isEqualTo(200);
    }

    @Test // GH-11 item 8
    void unknownPathsAndWrongMethodsAnswerWithAProblemType() {
        HttpResponse<String> unknown = app.get("/api/nope");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(unknown.body()).contains("\"type\":\"/problems/not-found\"");
        HttpResponse<String> wrongMethod = app.get("/api/events/concert/seats/4A/booking");
        assertThat(wrongMethod.statusCode()).isEqualTo(405);
        assertThat(wrongMethod.body()).contains("\"type\":\"/problems/method-not-allowed\"");
    }

    @Test // GH-11 item 7: the limit holds on the stream, not on what Content-Length claims
    void aChunkedBodyOverTheLimitIs413AndIsNotReadToItsEnd() throws Exception {
        long before = rows();
        long twentyMegabytes = 20L * 1024 * 1024;
        AtomicLong written = new AtomicLong();
        try (Socket socket = new Socket("127.0.0.1", app.uri("/").getPort())) {
            socket.setSoTimeout(15_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/events/concert/seats/4A/booking HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            Thread writer = new Thread(() -> {
                byte[] chunk = ("2000\r\n" + " ".repeat(8192) + "\r\n").getBytes(StandardCharsets.US_ASCII);
                try {
                    out.write("1\r\n{\r\n".getBytes(StandardCharsets.US_ASCII));
                    while (written.get() < twentyMegabytes) {
                        out.write(chunk);
                        written.addAndGet(8192);
                    }
                } catch (IOException e) {
                    // the server answered and closed: that is the point
                }
            }, "huge-body");
            writer.setDaemon(true);
            long start = System.nanoTime();
            writer.start();
            String head = new String(socket.getInputStream().readNBytes(512), StandardCharsets.ISO_8859_1);
            assertThat(head).startsWith("HTTP/1.1 413").contains("/problems/body-too-large");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            writer.join(15_000);
            assertThat(written.get()).as("the server stopped taking the body long before its end")
                    .isLessThan(twentyMegabytes);
        }
        assertThat(rows()).isEqualTo(before);
    }

    @Test
    void oversizedFieldsAre400() {
        long before = rows();
        HttpResponse<String> response = app.book("concert", "4A",
                "{\"buyer\":\"x@example.com\",\"name\":\"" + "n".repeat(101) + "\"}");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"name\"");
        assertThat(rows()).isEqualTo(before);
    }

    @Test
    void hugeBodiesAre413AndWriteNothing() {
        long before = rows();
        HttpResponse<String> response = app.book("concert", "4A",
                "{\"buyer\":\"x@example.com\",\"name\":\"" + "n".repeat(2_000_000) + "\"}");
        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v ->
                assertThat(v).startsWith("application/problem+json"));
        assertThat(response.body()).contains("/problems/body-too-large");
        assertThat(rows()).isEqualTo(before);
    }

    @Test
    void unicodeNamesAreWelcomeAndUnicodeSeatsAreNot() {
        HttpResponse<String> booked = app.book("concert", "7A", "zoe@example.com", "Zoë 李 Ωmega");
        assertThat(booked.statusCode()).isEqualTo(201);
        assertThat(app.get("/api/events/concert/seats/7A").body()).contains("Zoë 李 Ωmega");
        long before = rows();
        assertThat(app.book("concert", "7%C3%85", "zed@example.com", "Zed").statusCode()).isEqualTo(400);
        assertThat(rows()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/events/opera/seats/1A/booking", "/api/events/concert/seats/99Z/booking"})
    void unknownEventsAndSeatsAre404(String path) {
        long before = rows();
        HttpResponse<String> response = app.book(path.split("/")[3], path.split("/")[5], "dee@example.com", "Dee");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("/problems/not-found");
        assertThat(rows()).isEqualTo(before);
        assertThat(app.get("/api/events/opera/seats").statusCode()).isEqualTo(404);
    }

    @Test
    void withRedisDownThePostgresRefereeDecidesAlone() throws Exception {
        try (FaultProxy redis = new FaultProxy(servers.redis().host(), servers.redis().port());
             SeatsReplica noBouncer = SeatsReplica.start("no-bouncer", servers, mail.getSmtp().getPort(),
                     Map.of("spring.data.redis.port", Integer.toString(redis.port()),
                             "seatlock.lock.command-timeout", "300ms"))) {
            redis.down();
            HttpResponse<String> first = noBouncer.book("concert", "5A", "eve@example.com", "Eve");
            HttpResponse<String> second = noBouncer.book("concert", "5A", "fay@example.com", "Fay");

            assertThat(first.statusCode()).isEqualTo(201);
            assertThat(first.body()).contains("\"bouncer\":\"down\"", "\"fencingToken\":null");
            assertThat(first.headers().firstValue("X-Bouncer")).hasValue("down");
            assertThat(second.statusCode()).isEqualTo(409);
            assertThat(db.buyerOf("concert", "5A")).isEqualTo("eve@example.com");
            assertThat(noBouncer.counter("seats.bouncer.down")).isEqualTo(2.0);
            // Without its bouncer the replica still books correctly: it stays healthy, alive and ready.
            for (String probe : new String[] {"/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness"}) {
                HttpResponse<String> answer = noBouncer.get(probe);
                assertThat(answer.statusCode()).as(probe + ": " + answer.body()).isEqualTo(200);
                assertThat(answer.body()).as(probe).contains("\"status\":\"UP\"");
            }
        }
    }

    @Test
    void withPostgresDownBookingIs503AndNothingIsConfirmed() throws Exception {
        try (FaultProxy pg = new FaultProxy(servers.postgres().host(), servers.postgres().port());
             SeatsReplica noDb = SeatsReplica.start("no-db", servers, mail.getSmtp().getPort(),
                     Map.of("spring.datasource.url", "jdbc:postgresql://127.0.0.1:" + pg.port() + "/" + servers.database(),
                             "spring.datasource.hikari.connection-timeout", "1000"))) {
            pg.down();
            HttpResponse<String> response = noDb.book("concert", "6A", "gus@example.com", "Gus");
            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(response.body()).contains("/problems/database-unavailable");
        }
        assertThat(db.buyerOf("concert", "6A")).isNull();
    }

    @Test
    void openApiDescribesTheBookingEndpoint() {
        HttpResponse<String> spec = app.get("/v3/api-docs");
        assertThat(spec.statusCode()).isEqualTo(200);
        assertThat(spec.body()).contains("/api/events/{event}/seats/{seat}/booking", "seat-busy");
    }

    @Test
    void actuatorExposesOnlyHealthAndInfo() {
        assertThat(app.get("/actuator/health").statusCode()).isEqualTo(200);
        assertThat(app.get("/actuator/metrics").statusCode()).isEqualTo(404);
        assertThat(app.get("/actuator/env").statusCode()).isEqualTo(404);
    }

}
