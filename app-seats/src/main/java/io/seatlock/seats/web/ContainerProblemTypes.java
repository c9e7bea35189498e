package io.seatlock.seats.web;

import io.seatlock.demo.web.ContainerProblems;
import io.seatlock.seats.problems.ProblemType;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/**
 * What Tomcat answers by itself is a problem of this API's types too ({@link ContainerProblems}), typed as Spring MVC's
 * own errors of the same status are ({@link ProblemType#forFrameworkStatus}).
 */
@Configuration(proxyBeanMethods = false)
class ContainerProblemTypes {

    @Bean
    ContainerProblems containerProblems(JsonMapper json) {
        return new ContainerProblems(json,
                status -> ProblemType.forFrameworkStatus(status).containerType());
    }
}
