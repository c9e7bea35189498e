package io.seatlock.jobs;

import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.FaultProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.EOFException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jobs app's HTTP API answers every failure with an RFC 9457 problem, never a bare 500 or an empty 200.
 * {@code /api/operations} answers a 503 problem whichever of its reads finds PostgreSQL gone. The migration history
 * is read through Flyway, whose failures are not Spring's {@code DataAccessException}: a link that broke while the
 * page's request was between its SQL reads and Flyway's gave a bare 500 (seen once in
 * {@code OperationsPageBrowserTest}, on a busy machine). Here Flyway alone has its own link, so only its read fails.
 */
class OperationsApiTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("OperationsApiTest");

    /** A route the test adds, failing as a broken socket would: its cause is an EOFException. */
    private static final String FAILING = "/api/test-failing";

    private static FaultProxy flywayLink;
    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void startReplica() throws Exception {
        flywayLink = new FaultProxy(servers.postgres().host(), servers.postgres().port());
        Map<String, String> p = new HashMap<>(servers.springProperties());
        p.put("spring.flyway.url", "jdbc:postgresql://127.0.0.1:" + flywayLink.port() + "/" + servers.database()
                + "?connectTimeout=2&socketTimeout=10");
        p.put("spring.flyway.user", p.get("spring.datasource.username"));
        p.put("spring.flyway.password", p.get("spring.datasource.password"));
        p.put("server.port", "0");
        p.put("jobs.demo.enabled", "false");
        p.put("jobs.payments.cron", "-");
        app = JobsReplica.start(new SpringApplicationBuilder(JobsApplication.class)
                .initializers(context -> ((GenericApplicationContext) context).registerBean(RouterFunction.class,
                        () -> RouterFunctions.route().GET(FAILING, request -> failing()).build())), p);
    }

    private static ServerResponse failing() {
        throw new IllegalStateException("a test failure", new EOFException());
    }

    @AfterAll
    static void stopReplica() throws Exception {
        if (app != null) {
            app.close();
        }
        if (flywayLink != null) {
            flywayLink.close();
        }
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return send(path, "GET");
    }

    private static HttpResponse<String> send(String path, String method) throws Exception {
        return ReplicaHttp.send(JobsReplica.port(app), path, method, Duration.ofSeconds(30));
    }

    private static JsonNode problem(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = JsonMapper.shared().readTree(response.body());
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        return problem;
    }

    @Test
    void aBrokenLinkWhileTheMigrationHistoryIsReadIsA503ProblemNotA500() throws Exception {
        HttpResponse<String> healthy = get("/api/operations");
        assertThat(healthy.statusCode()).as(healthy.body()).isEqualTo(200);
        assertThat(JsonMapper.shared().readTree(healthy.body()).get("migrations")).isNotEmpty();

        flywayLink.down();
        try {
            JsonNode problem = problem(get("/api/operations"), 503);
            assertThat(problem.get("type").asString()).isEqualTo("/problems/operations-unavailable");
            assertThat(problem.get("detail").asString()).startsWith("This replica cannot read its database: ")
                    .doesNotContain(": null");
        } finally {
            flywayLink.heal();
        }
        assertThat(get("/api/operations").statusCode()).isEqualTo(200);
    }

    /**
     * Unhandled, Spring MVC takes a failure whose cause is an EOFException for a client that went away and answers
     * 200 with no body: a caller would read it as success.
     */
    @Test
    void anUnexpectedFailureIsA500ProblemEvenWhenItsCauseLooksLikeAClientThatLeft() throws Exception {
        JsonNode problem = problem(get(FAILING), 500);

        assertThat(problem.get("type").asString()).isEqualTo("/problems/internal-error");
        assertThat(problem.get("detail").asString()).doesNotContain("a test failure"); // the cause goes to the log only
    }

    /** Paths Tomcat refuses before any servlet sees them (an encoded slash, backslash or NUL) get a problem too. */
    @Test
    void pathsTheServerRefusesItselfAreProblemsToo() throws Exception {
        for (String path : List.of("/api/operations%00", "/api/%2E%2E%2Foperations%2F", "/api/%5Coperations")) {
            JsonNode problem = problem(get(path), 400);
            assertThat(problem.get("type").asString()).isEqualTo("/problems/bad-request");
            assertThat(problem.get("detail").asString()).contains("refused the request");
        }
    }

    @Test
    void springMvcsOwnErrorsAreProblemsTypedByTheirStatus() throws Exception {
        assertThat(problem(get("/api/no-such-thing"), 404).get("type").asString()).isEqualTo("/problems/not-found");
        assertThat(problem(send("/api/operations", "DELETE"), 405).get("type").asString())
                .isEqualTo("/problems/method-not-allowed");
        // answered by the container inside the application: Spring Boot's error page gave {"timestamp", "error"}
        assertThat(problem(send("/api/operations", "TRACE"), 405).get("type").asString())
                .isEqualTo("/problems/method-not-allowed");
        assertThat(problem(get("/error"), 404).get("type").asString()).isEqualTo("/problems/not-found");
    }
}
