package io.seatlock.jobs.web;

import io.seatlock.demo.web.ContainerProblems;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** What Tomcat answers by itself is a problem typed by its status, as Spring MVC's own errors are ({@link ProblemHandler}). */
@Configuration(proxyBeanMethods = false)
class ContainerProblemTypes {

    @Bean
    ContainerProblems containerProblems(JsonMapper json) {
        return new ContainerProblems(json, ProblemHandler::containerType);
    }
}
