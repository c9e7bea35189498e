package io.seatlock.jobs;

import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.FaultProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis outage never makes app-jobs look dead (liveness and the whole health stay UP, so nothing restarts
 * it), but takes it out of readiness: its jobs cannot run without the lock. It comes back when Redis does. On
 * PostgreSQL alone, a database outage takes out the lock with the database: readiness and the whole health go
 * down, liveness stays UP, and all come back with the database.
 */
class RedisOutageHealthTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("RedisOutageHealthTest");

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return ReplicaHttp.get(port, path, Duration.ofSeconds(10));
    }

    @Test
    void aRedisOutageTakesTheReplicaOutOfReadinessButNeverOutOfLiveness() throws Exception {
        try (FaultProxy redis = new FaultProxy(servers.redis().host(), servers.redis().port())) {
            Map<String, String> p = new HashMap<>(servers.springProperties());
            p.put("server.port", "0");
            p.put("spring.data.redis.port", Integer.toString(redis.port()));
            p.put("seatlock.lock.command-timeout", "500ms");
            p.put("jobs.report.cron", "-");
            p.put("jobs.payments.cron", "-");
            try (ConfigurableApplicationContext app = JobsReplica.start(p)) {
                int port = JobsReplica.port(app);
                await().atMost(Duration.ofSeconds(30)).until(() -> get(port, "/actuator/health/readiness").statusCode() == 200);

                redis.down();
                await().atMost(Duration.ofSeconds(30)).until(() -> get(port, "/actuator/health/readiness").statusCode() == 503);
                assertThat(get(port, "/actuator/health/readiness").body()).contains("DEGRADED");
                HttpResponse<String> liveness = get(port, "/actuator/health/liveness");
                assertThat(liveness.statusCode()).isEqualTo(200);
                assertThat(liveness.body()).contains("\"status\":\"UP\"");
                HttpResponse<String> health = get(port, "/actuator/health");
                assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
                assertThat(health.body()).contains("\"status\":\"UP\"");

                redis.heal();
                await().atMost(Duration.ofSeconds(30)).until(() -> get(port, "/actuator/health/readiness").statusCode() == 200);
            }
        }
    }

    @Test
    void onPostgresAloneADatabaseOutageTakesTheReplicaOutOfReadinessButNeverOutOfLiveness() throws Exception {
        try (FaultProxy postgres = new FaultProxy(servers.postgres().host(), servers.postgres().port())) {
            Map<String, String> p = new HashMap<>();
            p.put("spring.datasource.url", "jdbc:postgresql://" + postgres.host() + ":" + postgres.port() + "/"
                    + servers.database());
            p.put("spring.datasource.username", servers.postgres().user());
            p.put("spring.datasource.password", servers.postgres().password());
            p.put("seatlock.lock.store", "postgres");
            p.put("seatlock.lock.postgres.call-timeout", "500ms");
            p.put("server.port", "0");
            p.put("jobs.report.cron", "-");
            p.put("jobs.payments.cron", "-");
            try (ConfigurableApplicationContext app = JobsReplica.start(p)) {
                int port = JobsReplica.port(app);
                await().atMost(Duration.ofSeconds(30)).until(() -> get(port, "/actuator/health/readiness").statusCode() == 200);

                postgres.down();
                await().atMost(Duration.ofSeconds(30)).until(() -> get(port, "/actuator/health/readiness").statusCode() == 503);
                HttpResponse<String> liveness = get(port, "/actuator/health/liveness");
                assertThat(liveness.statusCode()).isEqualTo(200);
                assertThat(liveness.body()).contains("\"status\":\"UP\"");
                HttpResponse<String> health = get(port, "/actuator/health");
                assertThat(health.statusCode()).as(health.body()).isEqualTo(503);
                assertThat(health.body()).contains("\"status\":\"DOWN\"");

                postgres.heal();
                await().atMost(Duration.ofSeconds(30)).until(() -> get(port, "/actuator/health/readiness").statusCode() == 200);
            }
        }
    }
}
