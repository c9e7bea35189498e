package io.seatlock.seats.web;

import io.seatlock.appweb.ContainerProblems;
import io.seatlock.seats.problems.ProblemType;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** What Tomcat answers by itself is a problem of this API's types too, as {@link ProblemHandler}'s answers are. */
@Configuration(proxyBeanMethods = false)
class ContainerErrors {

    @Bean
    ContainerProblems containerProblems(JsonMapper json) {
        return new ContainerProblems(json, status -> ProblemType.forFrameworkStatus(status).problem(null));
    }
}
