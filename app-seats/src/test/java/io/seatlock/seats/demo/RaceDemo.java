package io.seatlock.seats.demo;

import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.localservers.LocalServers;
import io.seatlock.localservers.PostgresServer;
import io.seatlock.localservers.RedisServer;
import io.seatlock.seats.SeatsApplication;
import io.seatlock.seats.booking.BookingRequest;
import io.seatlock.seats.booking.SeatId;
import io.seatlock.seats.booking.BookingService;
import io.seatlock.test.Pause;
import io.seatlock.test.Pauses;
import io.seatlock.lock.DistributedLock;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Replays the 14C story with two app instances in one JVM and prints its timeline: A locks 14C and
 * sees it free, stalls past its lease, B books 14C for Omar, A wakes and writes for Lena. Runs on the
 * servers a development run finds ({@link LocalServers#forDevelopment()}: configured, 127.0.0.1, the development
 * servers another run shares, Testcontainers, or embedded ones it shares), in a fresh database
 * {@code seatlock_race_demo}.
 */
public final class RaceDemo {

    private static final long T0 = System.nanoTime();
    private static final String HOLD_TTL = "1s";

    private RaceDemo() {
    }

    /** Runs the demo: {@code ./mvnw -pl app-seats spring-boot:test-run -Dspring-boot.run.arguments=--race-demo}. */
    public static void run() throws Exception {
        PostgresServer pg = LocalServers.forDevelopment().postgres();
        RedisServer redis = LocalServers.forDevelopment().redis();
        String database = "seatlock_race_demo";
        String prefix = "race-demo:" + System.currentTimeMillis() + ":";
        pg.dropDatabase(database);
        pg.ensureDatabase(database);

        try (Pauses pauses = new Pauses();
             ConfigurableApplicationContext a = start("server-a", pg, redis, database, prefix);
             ConfigurableApplicationContext b = start("server-b", pg, redis, database, prefix)) {
            Pause gcPause = pauses.holdFirst(BookingService.BEFORE_SEAT_WRITE);
            say("A and B are up on ports %s and %s; a seat's lock lasts %s", port(a), port(b), HOLD_TTL);
            CompletableFuture<HttpResponse<String>> lena = CompletableFuture.supplyAsync(
                    () -> book(a, "lena@example.com", "Lena"));
            gcPause.awaitArrival();
            long pausedAt = System.nanoTime();
            say("A: 14C looks free; A stalls right before its write, as a long GC pause or a frozen VM would,"
                    + " until its %s lease has run out and B has booked", HOLD_TTL);
            String lockKey = new RedisKeys(prefix).lock(new SeatId("concert", "14C").lockName());
            say("Redis: A holds %s (owner %s)", lockKey, redis.with(r -> r.get(lockKey)));
            Pauses.awaitExpired(a.getBean(DistributedLock.class), new SeatId("concert", "14C").lockName());
            say("Redis: A's lock has expired while A is still paused");
            HttpResponse<String> omar = book(b, "omar@example.com", "Omar");
            say("B: books 14C for Omar -> %d %s", omar.statusCode(), omar.body());
            gcPause.open();
            say("A: wakes up after %d ms paused (its lease was %s) and writes 14C for Lena ...",
                    (System.nanoTime() - pausedAt) / 1_000_000, HOLD_TTL);
            HttpResponse<String> late = lena.get(10, TimeUnit.SECONDS);
            say("A: -> %d %s", late.statusCode(), late.body());

            JdbcClient db = JdbcClient.create(a.getBean(javax.sql.DataSource.class));
            say("PostgreSQL: seat 14C buyer = %s", db.sql(
                    "SELECT buyer_email FROM seats WHERE event_id = 'concert' AND label = '14C'").query(String.class).single());
            say("PostgreSQL: confirmation e-mails queued: %s", db.sql(
                    "SELECT string_agg(recipient, ', ') FROM email_outbox").query(String.class).single());
            say("The referee's conditional write matched 0 rows for A: Lena was told 'just taken', Omar keeps 14C.");
        } finally {
            redis.deleteKeys(prefix);
            pg.dropDatabase(database);
        }
    }

    private static ConfigurableApplicationContext start(String name, PostgresServer pg, RedisServer redis,
                                                        String database, String prefix) {
        SpringApplicationBuilder builder = new SpringApplicationBuilder(SeatsApplication.class).logStartupInfo(false);
        return builder.run("--server.port=0", "--seats.hold-ttl=" + HOLD_TTL, "--seatlock.lock.instance-id=" + name,
                "--seatlock.lock.key-prefix=" + prefix, "--spring.datasource.url=" + pg.jdbcUrl(database),
                "--spring.datasource.username=" + pg.user(), "--spring.datasource.password=" + pg.password(),
                "--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
                "--seats.relay.interval=1h", "--spring.main.banner-mode=off", "--logging.level.root=WARN",
                "--springdoc.api-docs.enabled=false", "--springdoc.swagger-ui.enabled=false");
    }

    private static HttpResponse<String> book(ConfigurableApplicationContext app, String buyer, String name) {
        try {
            BookingRequest request = new BookingRequest(buyer, name);
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port(app) + "/api/events/concert/seats/14C/booking"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"buyer\":\"" + request.buyer() + "\",\"name\":\"" + request.name() + "\"}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String port(ConfigurableApplicationContext app) {
        return app.getEnvironment().getProperty("local.server.port");
    }

    private static void say(String format, Object... args) {
        System.out.printf("[%5d ms] %s%n", (System.nanoTime() - T0) / 1_000_000, String.format(format, args));
    }
}
