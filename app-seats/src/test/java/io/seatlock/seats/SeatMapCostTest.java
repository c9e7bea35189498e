package io.seatlock.seats;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.localservers.OwnedRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GH-11 item 6: a seat-map view asks Redis about that event's free seats only, never a scan of Redis, so a
 * Redis holding a million unrelated keys answers it as fast as an empty one; and in one command (an MGET of
 * their lock keys), where it was one EXISTS per free seat.
 */
class SeatMapCostTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatMapCostTest");

    private static long calls(OwnedRedis redis, String command) {
        return redis.server().commandCalls().getOrDefault(command, 0L);
    }

    @Test
    void aSeatMapViewAsksOnlyAboutTheEventsSeatsHoweverLargeRedisIs() throws Exception {
        try (OwnedRedis redis = new OwnedRedis()) {
            String populated = redis.server().with(r -> r.dispatch(CommandType.DEBUG, new StatusOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).add("POPULATE").add(1_000_000).add("unrelated")));
            assertThat(populated).isEqualTo("OK");
            long keys = redis.server().with(r -> r.dbsize());
            assertThat(keys).isGreaterThanOrEqualTo(1_000_000L);
            // seats.map-max-age 0: every view refreshes, so one view shows the cost of one refresh
            try (SeatsReplica app = OwnRedisReplicas.start("map", servers, redis, "seats.map-max-age", "0ms");
                 RedisLockClient someoneElse = OwnRedisReplicas.someoneElse(servers, redis)) {
                someoneElse.tryAcquire("seat:concert:7K", Duration.ofMinutes(1), OverlapImpact.BROKEN_PROMISE).orElseThrow();
                app.get("/api/events/concert/seats"); // warm up connections and code paths
                long scansBefore = calls(redis, "scan");
                long existsBefore = calls(redis, "exists");
                long mgetsBefore = calls(redis, "mget");

                long start = System.nanoTime();
                HttpResponse<String> map = app.get("/api/events/concert/seats");
                Duration took = Duration.ofNanos(System.nanoTime() - start);

                assertThat(map.statusCode()).isEqualTo(200);
                assertThat(map.body()).contains("{\"seat\":\"7K\",\"status\":\"HELD\"}", "{\"seat\":\"8K\",\"status\":\"FREE\"}");
                assertThat(calls(redis, "scan")).as("no SCAN of the keyspace").isEqualTo(scansBefore);
                assertThat(calls(redis, "mget") - mgetsBefore).as("one MGET of the event's 400 seats").isEqualTo(1);
                assertThat(calls(redis, "exists") - existsBefore).as("no EXISTS per seat").isZero();
                assertThat(took).as("one MGET, not a walk through a million keys").isLessThan(Duration.ofSeconds(3));
            }
        }
    }

    /**
     * GH-20 item 5: an on-sale crowd watching the map shares one snapshot per event, so Redis sees one MGET
     * per refresh (at most one per seats.map-max-age), not one per view; a seat someone starts
     * booking still shows HELD within the promised 2 s.
     */
    @Test
    void aCrowdOfViewersSharesOneSnapshotAndStillSeesAHeldSeatWithinTwoSeconds() throws Exception {
        try (OwnedRedis redis = new OwnedRedis();
             SeatsReplica app = OwnRedisReplicas.start("crowd", servers, redis);
             RedisLockClient someoneElse = OwnRedisReplicas.someoneElse(servers, redis)) {
            app.get("/api/events/concert/seats");
            int viewers = 16;
            int viewsEach = 125;
            ExecutorService crowd = Executors.newFixedThreadPool(viewers);
            try {
                long refreshesBefore = calls(redis, "mget");
                long start = System.nanoTime();
                List<Future<?>> views = new ArrayList<>();
                for (int v = 0; v < viewers; v++) {
                    views.add(crowd.submit(() -> {
                        for (int i = 0; i < viewsEach; i++) {
                            assertThat(app.get("/api/events/concert/seats").statusCode()).isEqualTo(200);
                        }
                    }));
                }
                for (Future<?> view : views) {
                    view.get(2, TimeUnit.MINUTES);
                }
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                long refreshes = calls(redis, "mget") - refreshesBefore;
                long refreshesAtMost = took.toMillis() / 500 + 2; // seats.map-max-age 500 ms
                assertThat(refreshes).as("MGETs for %d views in %s", viewers * viewsEach, took)
                        .isPositive()
                        .isLessThanOrEqualTo(refreshesAtMost)
                        .isLessThan(viewers * viewsEach / 10);
            } finally {
                crowd.shutdownNow();
            }

            someoneElse.tryAcquire("seat:concert:9K", Duration.ofMinutes(1), OverlapImpact.BROKEN_PROMISE).orElseThrow();
            long heldAt = System.nanoTime();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                    .until(() -> app.get("/api/events/concert/seats").body().contains("{\"seat\":\"9K\",\"status\":\"HELD\"}"));
            assertThat(Duration.ofNanos(System.nanoTime() - heldAt)).as("map staleness")
                    .isLessThan(Duration.ofSeconds(2));
        }
    }

    /**
     * GH-20 item 5: a snapshot is serialized once and named by an ETag, so a viewer whose map is current gets
     * 304 and no body, from either replica; a seat held elsewhere or booked changes the tag and the viewer gets
     * the new map, the held seat within the promised 2 s, the booking at once.
     */
    @Test
    void aViewerWhoseMapIsCurrentGetsNotModifiedWithNoBodyUntilTheMapChanges() throws Exception {
        String seats = "/api/events/concert/seats";
        try (OwnedRedis redis = new OwnedRedis();
             SeatsReplica a = OwnRedisReplicas.start("etag-a", servers, redis);
             SeatsReplica b = OwnRedisReplicas.start("etag-b", servers, redis);
             RedisLockClient someoneElse = OwnRedisReplicas.someoneElse(servers, redis)) {
            HttpResponse<String> first = a.get(seats);
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(first.headers().firstValue("Cache-Control")).hasValue("no-cache");
            assertThat(first.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/json"));
            assertThat(first.body()).contains("{\"seat\":\"1A\",\"status\":\"FREE\"}");
            String tag = first.headers().firstValue("ETag").orElseThrow();
            assertThat(tag).matches("\"[A-Za-z0-9_-]{22}\"");

            HttpResponse<String> unchanged = a.get(seats, "If-None-Match", tag);
            assertThat(unchanged.statusCode()).isEqualTo(304);
            assertThat(unchanged.body()).isEmpty();
            assertThat(unchanged.headers().firstValue("ETag")).hasValue(tag);
            assertThat(b.get(seats).headers().firstValue("ETag")).as("the same map on the other replica").hasValue(tag);
            assertThat(b.get(seats, "If-None-Match", tag).statusCode()).isEqualTo(304);

            someoneElse.tryAcquire("seat:concert:9K", Duration.ofMinutes(1), OverlapImpact.BROKEN_PROMISE).orElseThrow();
            long heldAt = System.nanoTime();
            HttpResponse<String> held = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                    .until(() -> a.get(seats, "If-None-Match", tag), r -> r.statusCode() != 304);
            assertThat(Duration.ofNanos(System.nanoTime() - heldAt)).as("map staleness").isLessThan(Duration.ofSeconds(2));
            assertThat(held.statusCode()).isEqualTo(200);
            assertThat(held.body()).contains("{\"seat\":\"9K\",\"status\":\"HELD\"}");
            String heldTag = held.headers().firstValue("ETag").orElseThrow();
            assertThat(heldTag).isNotEqualTo(tag);

            assertThat(a.book("concert", "3C", "omar@example.com", "Omar").statusCode()).isEqualTo(201);
            HttpResponse<String> booked = a.get(seats, "If-None-Match", heldTag);
            assertThat(booked.statusCode()).as("a booking made here shows in the next view at once").isEqualTo(200);
            assertThat(booked.body()).contains("{\"seat\":\"3C\",\"status\":\"BOOKED\"}");
            assertThat(booked.headers().firstValue("ETag").orElseThrow()).isNotEqualTo(heldTag);
        }
    }
}
