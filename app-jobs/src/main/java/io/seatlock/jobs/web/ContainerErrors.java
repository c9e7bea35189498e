package io.seatlock.jobs.web;

import io.seatlock.appweb.ContainerProblems;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.ProblemDetail;
import tools.jackson.databind.json.JsonMapper;

/** What Tomcat answers by itself is a problem typed by its status too, as Spring MVC's own errors are here. */
@Configuration(proxyBeanMethods = false)
class ContainerErrors {

    @Bean
    ContainerProblems containerProblems(JsonMapper json) {
        return new ContainerProblems(json, status -> {
            ProblemDetail problem = ProblemDetail.forStatus(status); // its title: the status' reason phrase
            problem.setType(ProblemHandler.typeFor(status));
            return problem;
        });
    }
}
