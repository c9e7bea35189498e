package io.seatlock.jobs;

import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.FaultProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /api/operations} answers a 503 problem, never a 500, whichever of its reads finds PostgreSQL gone. The
 * migration history is read through Flyway, whose failures are not Spring's {@code DataAccessException}: a link that
 * broke while the page's request was between its SQL reads and Flyway's gave a bare 500 (seen once in
 * {@code OperationsPageBrowserTest}, on a busy machine). Here Flyway alone has its own link, so only its read fails.
 */
class OperationsApiTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("OperationsApiTest");

    private static HttpResponse<String> get(ConfigurableApplicationContext app, String path) throws Exception {
        int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
        return ReplicaHttp.get(port, path, Duration.ofSeconds(30));
    }

    @Test
    void aBrokenLinkWhileTheMigrationHistoryIsReadIsA503ProblemNotA500() throws Exception {
        try (FaultProxy flywayLink = new FaultProxy(servers.postgres().host(), servers.postgres().port())) {
            Map<String, String> p = new HashMap<>(servers.springProperties());
            p.put("spring.flyway.url", "jdbc:postgresql://127.0.0.1:" + flywayLink.port() + "/" + servers.database()
                    + "?connectTimeout=2&socketTimeout=10");
            p.put("spring.flyway.user", p.get("spring.datasource.username"));
            p.put("spring.flyway.password", p.get("spring.datasource.password"));
            p.put("server.port", "0");
            p.put("jobs.demo.enabled", "false");
            p.put("jobs.payments.cron", "-");
            String[] args = p.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
            try (ConfigurableApplicationContext app = new SpringApplicationBuilder(JobsApplication.class).run(args)) {
                HttpResponse<String> healthy = get(app, "/api/operations");
                assertThat(healthy.statusCode()).as(healthy.body()).isEqualTo(200);
                assertThat(JsonMapper.shared().readTree(healthy.body()).get("migrations")).isNotEmpty();

                flywayLink.down();
                HttpResponse<String> gone = get(app, "/api/operations");

                assertThat(gone.statusCode()).as(gone.body()).isEqualTo(503);
                assertThat(gone.headers().firstValue("Content-Type")).hasValue("application/problem+json");
                JsonNode problem = JsonMapper.shared().readTree(gone.body());
                assertThat(problem.get("type").asString()).isEqualTo("/problems/operations-unavailable");
                assertThat(problem.get("detail").asString()).startsWith("This replica cannot read its database: ")
                        .doesNotContain(": null");

                flywayLink.heal();
                assertThat(get(app, "/api/operations").statusCode()).isEqualTo(200);
            }
        }
    }
}
