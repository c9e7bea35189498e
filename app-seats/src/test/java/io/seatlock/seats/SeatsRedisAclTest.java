package io.seatlock.seats;

import io.seatlock.lock.redis.RedisTimeouts;
import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.lettuce.LettuceTransport;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.DocumentedAcl;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.localservers.OwnedRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GH-10 item 9: app-seats under the README's least-privilege ACL user (read from README.md), on a Redis of
 * its own: health is UP (Spring's check calls INFO), a booking goes through the lock, the sold-seat hint
 * (EXISTS) answers the next buyer from Redis without a PostgreSQL transaction, and the seat map shows a seat someone
 * is booking as HELD (one MGET; without it in the ACL the map would show every seat FREE).
 */
class SeatsRedisAclTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatsRedisAclTest");

    @Test
    void healthABookingAndTheSoldSeatHintWorkUnderTheDocumentedAcl() throws Exception {
        try (OwnedRedis redis = new OwnedRedis()) {
            DocumentedAcl.apply(redis.server());
            String user = DocumentedAcl.setUserArguments().get(0);
            try (SeatsReplica app = SeatsReplica.start("acl", servers, 1, Map.of(
                    "spring.data.redis.port", Integer.toString(redis.port()),
                    "spring.data.redis.username", user,
                    "spring.data.redis.password", DocumentedAcl.password(),
                    "seatlock.lock.key-prefix", "seatlock:", // the documented ACL's key pattern; this Redis is ours alone
                    "seats.relay.interval", "1h",
                    "management.endpoint.health.show-details", "always"))) {

                HttpResponse<String> health = app.get("/actuator/health");
                assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
                JsonNode components = JsonMapper.shared().readTree(health.body()).get("components");
                assertThat(components.has("redis")).as("Spring's Redis indicator is off: the seatlock one reports Redis").isFalse();
                assertThat(components.get("seatlock").get("status").asString()).isEqualTo("UP");

                HttpResponse<String> booked = app.book("concert", "7G", "ada@example.com", "Ada");
                assertThat(booked.statusCode()).as(booked.body()).isEqualTo(201);
                assertThat(booked.body()).contains("\"bouncer\":\"up\"");
                long hint = redis.server().with(r -> r.exists("seatlock:decided:{seat:concert:7G}"));
                assertThat(hint).as("sold-seat hint written").isEqualTo(1L);

                HttpResponse<String> late = app.book("concert", "7G", "bob@example.com", "Bob");
                assertThat(late.statusCode()).isEqualTo(409);
                assertThat(late.body()).contains("seat-taken");
                assertThat(app.counter("seatlock.lock.decided", "seatlock.lock.group", "seat")).as("answered from the decided marker")
                        .isEqualTo(1.0);
                assertThat(app.counter("seats.bouncer.down")).isZero();

                try (RedisLockClient someoneElse = RedisLockClient.over(
                        LettuceTransport.standalone(RedisURI.create("127.0.0.1", redis.port()), RedisTimeouts.of(Duration.ofSeconds(2))),
                        RedisLockSettings.defaults().withKeyPrefix("seatlock:"), LockListener.NOOP)) {
                    someoneElse.tryAcquire("seat:concert:8G", Duration.ofMinutes(1), OverlapImpact.BROKEN_PROMISE).orElseThrow();
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(app.get("/api/events/concert/seats").body())
                            .contains("{\"seat\":\"8G\",\"status\":\"HELD\"}", "{\"seat\":\"7G\",\"status\":\"BOOKED\"}"));
                }
            }
        }
    }
}
