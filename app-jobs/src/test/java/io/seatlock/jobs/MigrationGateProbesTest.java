package io.seatlock.jobs;

import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.lettuce.LettuceTransport;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GH-9, with the gate after the web server ({@code seatlock.migration.timing=after-web-server}, the explicit
 * choice for long migrations): a replica waiting at the migration gate answers its probes: liveness UP (a liveness probe must not
 * kill it), readiness OUT_OF_SERVICE (no traffic yet); once the gate is free it migrates and turns ready.
 */
class MigrationGateProbesTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("MigrationGateProbesTest");
    private static HttpResponse<String> get(int port, String path) throws Exception {
        return ReplicaHttp.get(port, path, Duration.ofSeconds(5));
    }

    @Test
    void aReplicaWaitingAtTheGateIsAliveButNotReadyAndStartsOnceTheGateIsFree() throws Exception {
        Map<String, String> p = new HashMap<>(servers.springProperties());
        p.put("server.port", "0");
        p.put("management.endpoint.health.probes.enabled", "true");
        p.put("seatlock.migration.timing", "after-web-server");
        p.put("jobs.report.cron", "-");
        p.put("jobs.payments.cron", "-");

        try (RedisLockClient otherReplica = RedisLockClient.over(
                LettuceTransport.standalone(servers.redis().uri(), RedisTimeouts.of(Duration.ofSeconds(2))),
                RedisLockSettings.defaults().withKeyPrefix(servers.keyPrefix()).withInstanceId("migrating-replica"),
                LockListener.NOOP)) {
            LockLease gate = otherReplica.tryAcquire("migration", Duration.ofMinutes(2), OverlapImpact.WASTED_WORK)
                    .orElseThrow();
            // The replica waits at the gate inside its start, so its port comes from the web server's own event.
            CompletableFuture<Integer> listening = new CompletableFuture<>();
            CompletableFuture<ConfigurableApplicationContext> starting = CompletableFuture.supplyAsync(
                    () -> JobsReplica.start(new SpringApplicationBuilder(JobsApplication.class).listeners(
                            (ApplicationListener<WebServerInitializedEvent>) e -> listening.complete(e.getWebServer().getPort())), p));
            try {
                int port = listening.get(60, TimeUnit.SECONDS);
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                        .until(() -> get(port, "/actuator/health/liveness").statusCode() == 200);
                assertThat(get(port, "/actuator/health/liveness").body()).contains("\"status\":\"UP\"");
                HttpResponse<String> readiness = get(port, "/actuator/health/readiness");
                assertThat(readiness.statusCode()).isEqualTo(503);
                assertThat(readiness.body()).contains("OUT_OF_SERVICE");
                assertThat(starting).as("still waiting at the gate").isNotDone();
                assertThat(servers.dataSource().getConnection().getMetaData()
                        .getTables(null, null, "flyway_schema_history", null).next()).as("nothing migrated yet").isFalse();

                gate.release();
                try (ConfigurableApplicationContext app = starting.get(60, TimeUnit.SECONDS)) {
                    await().atMost(Duration.ofSeconds(30))
                            .until(() -> get(port, "/actuator/health/readiness").statusCode() == 200);
                    assertThat(app.isActive()).isTrue();
                }
            } finally {
                starting.thenAccept(ConfigurableApplicationContext::close);
            }
        }
    }
}
