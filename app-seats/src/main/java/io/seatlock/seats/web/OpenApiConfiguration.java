package io.seatlock.seats.web;

import io.seatlock.seats.problems.ProblemType;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The OpenAPI page's title, version, description (with every problem type) and tags. */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    private static final String DESCRIPTION = """
            Book seats for events. Redis is the bouncer: a seat someone is booking right now answers \
            `409 seat-busy` at once. PostgreSQL is the referee: a conditional write decides who gets a seat, \
            so a seat is never sold twice, even to a client that paused past its lock.

            Send an `Idempotency-Key` header with each booking and retry with the same key after a \
            `503 outcome-unknown` or a lost response: a booking that was made is returned, never made twice.

            Every error is an RFC 9457 problem (`application/problem+json`) whose `type` is one of:

            | type | status | when |
            |---|---|---|
            """;

    @Bean
    OpenAPI seatsOpenApi(ObjectProvider<BuildProperties> build) {
        String version = build.getIfAvailable() == null ? "development" : build.getIfAvailable().getVersion();
        String problems = Arrays.stream(ProblemType.values())
                .map(p -> "| `" + p.uri() + "` | " + p.status().value() + " | " + p.when() + " |")
                .collect(Collectors.joining("\n"));
        return new OpenAPI()
                .info(new Info().title("seatlock tickets API").version(version).description(DESCRIPTION + problems)
                        .license(new License().name("Apache-2.0").url("https://www.apache.org/licenses/LICENSE-2.0")));
        // The tags and their descriptions come from the controllers' @Tag annotations, written there once.
    }
}
