package io.seatlock.seats;

import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.localservers.OwnedRedis;
import org.junit.jupiter.api.Test;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.support.GenericApplicationContext;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GH-20 item 5: the seat map pushed to open pages (server-sent events). A page gets the map at once and every
 * change within the promised 2 s; a crowd of streaming pages costs Redis no more than one page; a viewer that
 * stops reading delays nobody else, holds no request thread and is closed; bad requests get problems.
 */
class SeatMapStreamTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatMapStreamTest");

    private static final String STREAM = "/api/events/concert/seats/stream";
    private static final String SEAT_9K_HELD = "{\"seat\":\"9K\",\"status\":\"HELD\"}";

    private static double viewers(SeatsReplica app) {
        return app.gauge("seats.map.viewers");
    }

    /** The replica's sockets with a small, fixed send buffer (no autotuning up to megabytes), so a reader that stops shows soon. */
    private static void smallSendBuffers(GenericApplicationContext context) {
        context.registerBean("smallSendBuffers", WebServerFactoryCustomizer.class,
                () -> (WebServerFactoryCustomizer<TomcatServletWebServerFactory>) factory -> factory.addConnectorCustomizers(
                        connector -> connector.setProperty("socket.txBufSize", "4096")));
    }

    /**
     * Waits until the replica has noticed that its pages left. A write to a page that went away fails at the second
     * one, so the map keeps changing meanwhile (a seat held, then let go), rather than waiting 10 s for two heartbeats.
     */
    private static void awaitPagesLeft(SeatsReplica app, RedisLockClient someoneElse) {
        AtomicReference<LockLease> held = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(600)).until(() -> {
            LockLease lease = held.getAndSet(null);
            if (lease != null) {
                lease.release();
            } else {
                held.set(someoneElse.tryAcquire("seat:concert:1A", Duration.ofMinutes(1), OverlapImpact.BROKEN_PROMISE)
                        .orElse(null));
            }
            return viewers(app) == 0.0;
        });
        LockLease last = held.get();
        if (last != null) {
            last.release();
        }
    }

    /** Refreshes of the map's held seats: one MGET each. */
    private static long refreshes(OwnedRedis redis) {
        return redis.server().commandCalls().getOrDefault("mget", 0L);
    }

    @Test
    void aPageGetsTheMapAtOnceAndEachChangeWithinTwoSeconds() throws Exception {
        try (OwnedRedis redis = new OwnedRedis();
             SeatsReplica app = OwnRedisReplicas.start("stream", servers, redis);
             RedisLockClient someoneElse = OwnRedisReplicas.someoneElse(servers, redis)) {
            String polledTag = app.get("/api/events/concert/seats").headers().firstValue("ETag").orElseThrow();
            try (MapStreamViewer page = new MapStreamViewer(app.uri(STREAM))) {
                assertThat(page.status()).isEqualTo(200);
                assertThat(page.header("Content-Type")).startsWith("text/event-stream");
                assertThat(page.header("Cache-Control")).isEqualTo("no-cache");
                await().atMost(Duration.ofSeconds(10)).until(() -> !page.events().isEmpty());
                MapStreamViewer.Event first = page.events().get(0);
                assertThat(first.data()).startsWith("[{\"seat\":\"1A\",\"status\":\"FREE\"}");
                assertThat(first.id()).as("the event id is the map's ETag").isEqualTo(polledTag);
                assertThat(viewers(app)).isEqualTo(1.0);

                someoneElse.tryAcquire("seat:concert:9K", Duration.ofMinutes(1), OverlapImpact.BROKEN_PROMISE).orElseThrow();
                long heldAt = System.nanoTime();
                await().atMost(Duration.ofSeconds(10)).until(() -> "HELD".equals(page.status("9K")));
                MapStreamViewer.Event held = page.events().stream().filter(e -> e.data().contains(SEAT_9K_HELD))
                        .findFirst().orElseThrow();
                assertThat(Duration.ofNanos(held.at() - heldAt)).as("map staleness").isLessThan(Duration.ofSeconds(2));
                assertThat(first.type()).as("the whole map first").isEqualTo("message");
                assertThat(held.type()).isEqualTo("change");
                assertThat(held.data()).as("then only the seats that changed").isEqualTo("[" + SEAT_9K_HELD + "]");
                assertThat(held.id()).as("the id names the map the change leads to")
                        .isEqualTo(app.get("/api/events/concert/seats").headers().firstValue("ETag").orElseThrow())
                        .isNotEqualTo(first.id());

                assertThat(app.book("concert", "3C", "omar@example.com", "Omar").statusCode()).isEqualTo(201);
                long bookedAt = System.nanoTime();
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> "BOOKED".equals(page.status("3C")));
                MapStreamViewer.Event booked = page.events().stream()
                        .filter(e -> e.data().contains("{\"seat\":\"3C\",\"status\":\"BOOKED\"}")).findFirst().orElseThrow();
                assertThat(Duration.ofNanos(booked.at() - bookedAt)).isLessThan(Duration.ofSeconds(2));
                assertThat(booked.data()).doesNotContain("omar").as("no buyer's data in the map");
                int seen = page.events().size();
                assertThat(page.events().stream().map(MapStreamViewer.Event::id).distinct().count())
                        .as("a map is pushed once, when it changes").isEqualTo(seen);
            }
            awaitPagesLeft(app, someoneElse);
        }
    }

    /**
     * Many pages share the pushes: Redis sees one MGET per refresh (at most one per map-max-age), as
     * for one page; and every page gets the change. The request threads stay free: a replica with 4 of them
     * answers a GET while 200 pages stream.
     */
    @Test
    void aCrowdOfStreamingPagesCostsRedisWhatOnePageDoesAndHoldsNoRequestThread() throws Exception {
        try (OwnedRedis redis = new OwnedRedis();
             SeatsReplica app = OwnRedisReplicas.start("stream-crowd", servers, redis, "server.tomcat.threads.max", "4");
             RedisLockClient someoneElse = OwnRedisReplicas.someoneElse(servers, redis)) {
            List<MapStreamViewer> pages = new ArrayList<>();
            try {
                long refreshesBefore = refreshes(redis);
                long start = System.nanoTime();
                for (int i = 0; i < 200; i++) {
                    pages.add(new MapStreamViewer(app.uri(STREAM)));
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> viewers(app) == 200.0);
                assertThat(pages).allSatisfy(page -> assertThat(page.status()).isEqualTo(200));
                assertThat(app.get("/api/events").statusCode()).as("a request thread is free").isEqualTo(200);

                someoneElse.tryAcquire("seat:concert:9K", Duration.ofMinutes(1), OverlapImpact.BROKEN_PROMISE).orElseThrow();
                await().atMost(Duration.ofSeconds(10)).until(() -> pages.stream().allMatch(p -> "HELD".equals(p.status("9K"))));
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                long refreshesAtMost = took.toMillis() / 500 + 2; // seats.map-max-age 500 ms
                assertThat(refreshes(redis) - refreshesBefore).as("MGETs for 200 pages over %s", took)
                        .isPositive().isLessThanOrEqualTo(refreshesAtMost);
            } finally {
                pages.forEach(MapStreamViewer::close);
            }
            awaitPagesLeft(app, someoneElse);
        }
    }

    /**
     * A page that stops reading (a frozen browser, a dead link): its connection fills, and it keeps one pending
     * frame while the others get every change; after 10 s of taking nothing it is closed. Fast, large changes (a row
     * of 20 seats held while the last one is let go, every 100 ms or so) fill its buffers quickly.
     */
    @Test
    void aViewerThatStopsReadingDelaysNoOneAndIsClosed() throws Exception {
        try (OwnedRedis redis = new OwnedRedis();
             SeatsReplica app = SeatsReplica.startWith("stream-frozen", servers, 1, SeatMapStreamTest::smallSendBuffers,
                     OwnRedisReplicas.properties(redis, "seats.map-max-age", "100ms"));
             RedisLockClient someoneElse = OwnRedisReplicas.someoneElse(servers, redis);
             MapStreamViewer live = new MapStreamViewer(app.uri(STREAM));
             Socket frozen = new Socket()) {
            frozen.setReceiveBufferSize(4096);
            frozen.connect(new InetSocketAddress("127.0.0.1", app.uri("/").getPort()), 5000);
            frozen.getOutputStream().write(("GET " + STREAM + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            await().atMost(Duration.ofSeconds(10)).until(() -> viewers(app) == 2.0);

            String rows = "ABCDEFGHIJKLMNOPQRST";
            int changes = 0;
            long frozenSince = System.nanoTime();
            List<LockLease> heldRow = List.of();
            while (viewers(app) == 2.0 && System.nanoTime() - frozenSince < TimeUnit.SECONDS.toNanos(60)) {
                char row = rows.charAt(changes++ % rows.length());
                List<LockLease> leases = new ArrayList<>();
                for (int n = 1; n <= 20; n++) {
                    leases.add(someoneElse.tryAcquire("seat:concert:" + n + row, Duration.ofMinutes(1),
                            OverlapImpact.BROKEN_PROMISE).orElseThrow());
                }
                heldRow.forEach(LockLease::release);
                heldRow = leases;
                String lastOfRow = "20" + row;
                long changedAt = System.nanoTime();
                await().atMost(Duration.ofSeconds(10)).until(() -> "HELD".equals(live.status(lastOfRow)));
                assertThat(Duration.ofNanos(System.nanoTime() - changedAt)).as("the live page's staleness beside a frozen one")
                        .isLessThan(Duration.ofSeconds(2));
            }
            Duration frozenFor = Duration.ofNanos(System.nanoTime() - frozenSince);
            assertThat(viewers(app)).as("the frozen page is closed").isEqualTo(1.0);
            assertThat(frozenFor).as("closed after it took nothing for 10 s").isGreaterThanOrEqualTo(Duration.ofSeconds(10));
            assertThat(changes).as("changes pushed meanwhile").isGreaterThan(20);

            InputStream in = frozen.getInputStream();
            frozen.setSoTimeout(10_000);
            String sent = new String(in.readAllBytes(), StandardCharsets.UTF_8); // up to the end: the stream closed its connection
            assertThat(sent).as("what the frozen page had been sent before it was closed")
                    .startsWith("HTTP/1.1 200").contains("\r\nConnection: close\r\n", "retry: 2000\nid: \"");

            heldRow.forEach(LockLease::release);
            someoneElse.tryAcquire("seat:concert:9K", Duration.ofMinutes(1), OverlapImpact.BROKEN_PROMISE).orElseThrow();
            await().atMost(Duration.ofSeconds(2)).until(() -> "HELD".equals(live.status("9K")));
        }
    }

    @Test
    void badRequestsGetProblemsAndAFullReplicaSendsPagesToPolling() throws Exception {
        try (OwnedRedis redis = new OwnedRedis();
             SeatsReplica app = OwnRedisReplicas.start("stream-problems", servers, redis, "seats.map-max-viewers", "1")) {
            HttpResponse<String> unknown = app.get("/api/events/nope/seats/stream", "Accept", "text/event-stream");
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(unknown.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(unknown.body()).contains("\"type\":\"/problems/not-found\"");

            HttpResponse<String> malformed = app.get("/api/events/no%20pe/seats/stream", "Accept", "text/event-stream");
            assertThat(malformed.statusCode()).isEqualTo(400);
            assertThat(malformed.body()).contains("\"type\":\"/problems/bad-seat-address\"");

            try (MapStreamViewer first = new MapStreamViewer(app.uri(STREAM))) {
                assertThat(first.status()).isEqualTo(200);
                HttpResponse<String> full = app.get(STREAM, "Accept", "text/event-stream");
                assertThat(full.statusCode()).isEqualTo(503);
                assertThat(full.headers().firstValue("Content-Type")).hasValue("application/problem+json");
                assertThat(full.body()).contains("\"type\":\"/problems/map-stream-full\"");
                assertThat(viewers(app)).isEqualTo(1.0);
                assertThat(app.get("/api/events/concert/seats").statusCode()).as("polling still works").isEqualTo(200);
            }
        }
    }

    /** A stream ends, cleanly, once it has lasted seats.map-stream-lifetime; the page then reconnects. */
    @Test
    void aStreamEndsAfterItsLifetime() throws Exception {
        Duration lifetime = Duration.ofSeconds(3);
        try (OwnedRedis redis = new OwnedRedis();
             SeatsReplica app = OwnRedisReplicas.start("stream-lifetime", servers, redis,
                     "seats.map-stream-lifetime", lifetime.toMillis() + "ms")) {
            long opened = System.nanoTime();
            try (MapStreamViewer page = new MapStreamViewer(app.uri(STREAM))) {
                assertThat(page.status()).isEqualTo(200);
                page.ended().get(lifetime.multipliedBy(10).toSeconds(), TimeUnit.SECONDS); // ends without an error
                assertThat(Duration.ofNanos(System.nanoTime() - opened)).as("not before its lifetime").isGreaterThanOrEqualTo(lifetime);
                assertThat(page.events()).as("the map came first").isNotEmpty();
                await().atMost(Duration.ofSeconds(10)).until(() -> viewers(app) == 0.0);
            }
            try (MapStreamViewer reconnected = new MapStreamViewer(app.uri(STREAM))) {
                await().atMost(Duration.ofSeconds(10)).until(() -> !reconnected.events().isEmpty());
                assertThat(viewers(app)).isEqualTo(1.0);
            }
        }
    }

    /** Stopping a replica ends its streams first (pages reconnect elsewhere) rather than waiting for them. */
    @Test
    void aStoppingReplicaEndsItsStreams() throws Exception {
        try (OwnedRedis redis = new OwnedRedis()) {
            SeatsReplica app = OwnRedisReplicas.start("stream-stop", servers, redis);
            try (MapStreamViewer page = new MapStreamViewer(app.uri(STREAM))) {
                await().atMost(Duration.ofSeconds(10)).until(() -> !page.events().isEmpty());
                long stopping = System.nanoTime();
                app.close();
                assertThat(Duration.ofNanos(System.nanoTime() - stopping)).as("no wait for open streams")
                        .isLessThan(Duration.ofSeconds(15));
                page.ended().handle((ok, failed) -> null).get(10, TimeUnit.SECONDS);
                assertThat(page.ended()).isDone();
            }
        }
    }
}
