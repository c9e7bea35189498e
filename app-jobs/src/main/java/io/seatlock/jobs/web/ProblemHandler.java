package io.seatlock.jobs.web;

import io.seatlock.demo.web.ContainerProblems;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import java.net.URI;
import java.util.Locale;

/**
 * Every error of the jobs app's HTTP API as an RFC 9457 problem. Spring MVC's own (unknown path, wrong method, ...)
 * get a type named after their status ({@code /problems/not-found}); anything unexpected is a 500
 * {@code /problems/internal-error}. Without this, a failure whose cause chain ends in an {@code EOFException} (a
 * broken link to PostgreSQL or Redis) would pass Spring MVC's check for a client that went away and be answered 200
 * with an empty body.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final String PREFIX = "/problems/";

    @Override
    protected ResponseEntity<Object> createResponseEntity(Object body, HttpHeaders headers, HttpStatusCode status,
                                                          WebRequest request) {
        if (body instanceof ProblemDetail problem && (problem.getType() == null
                || URI.create("about:blank").equals(problem.getType()))) {
            problem.setType(typeFor(status.value()));
        }
        return super.createResponseEntity(body, headers, status, request);
    }

    /** The type of an error that has none of its own: named after its status, {@code /problems/not-found}. */
    static URI typeFor(int status) {
        HttpStatus known = HttpStatus.resolve(status);
        return URI.create(PREFIX + (known == null ? "status-" + status : known.name().toLowerCase(Locale.ROOT).replace('_', '-')));
    }

    /** The type and title of a problem Tomcat answers by itself: those of its status. */
    static ContainerProblems.Type containerType(int status) {
        HttpStatus known = HttpStatus.resolve(status);
        return new ContainerProblems.Type(typeFor(status), known == null ? null : known.getReasonPhrase());
    }

    /** Anything unexpected: the cause goes to the log, not to the client. */
    @ExceptionHandler(Exception.class)
    ProblemDetail unexpected(Exception e) {
        logger.error("unexpected error", e);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "the request failed unexpectedly; the replica logged why");
        problem.setType(URI.create(PREFIX + "internal-error"));
        problem.setTitle("Internal error");
        return problem;
    }
}
