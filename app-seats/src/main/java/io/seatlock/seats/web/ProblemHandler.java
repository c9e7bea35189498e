package io.seatlock.seats.web;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.TransientDataAccessException;
import io.seatlock.seats.problems.ProblemType;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.databind.exc.MismatchedInputException;

import java.net.URI;
import java.util.Map;
import java.util.stream.Collectors;

/** Every API error as an RFC 9457 problem body. */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        return invalidFields(ex.getBindingResult().getFieldErrors().stream()
                .collect(Collectors.toMap(e -> e.getField(), e -> String.valueOf(e.getDefaultMessage()), (a, b) -> a)));
    }

    /**
     * Malformed JSON, an empty body, a JSON array or string, a field given twice; a field of another JSON type (listed
     * as an invalid field); or a body cut off at the size limit.
     */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            if (cause instanceof RequestSizeLimit.BodyTooLarge) {
                return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE)
                        .body(ProblemType.BODY_TOO_LARGE.problem(cause.getMessage() + "; nothing was written"));
            }
            if (cause instanceof MismatchedInputException mismatch && !mismatch.getPath().isEmpty()
                    && mismatch.getPath().get(0).getPropertyName() != null) {
                return invalidFields(Map.of(mismatch.getPath().get(0).getPropertyName(),
                        String.class.equals(mismatch.getTargetType()) ? "must be a JSON string" : "has the wrong JSON type"));
            }
        }
        return ResponseEntity.badRequest().body(ProblemType.UNREADABLE_BODY.problem(
                "the body must be a JSON object such as {\"buyer\":\"ada@example.com\",\"name\":\"Ada\"}, "
                        + "each field once; nothing was written"));
    }

    private static ResponseEntity<Object> invalidFields(Map<String, String> errors) {
        ProblemDetail problem = ProblemType.INVALID_REQUEST.problem("the request body has invalid fields; nothing was written");
        problem.setProperty("errors", errors);
        return ResponseEntity.badRequest().body(problem);
    }

    /**
     * Every other error Spring MVC answers itself (unknown path, wrong method or media type, ...) gets a
     * problem type too, named after its status: one of those listed in the README.
     */
    @Override
    protected ResponseEntity<Object> createResponseEntity(Object body, HttpHeaders headers, HttpStatusCode status,
                                                          WebRequest request) {
        if (body instanceof ProblemDetail problem && (problem.getType() == null
                || URI.create("about:blank").equals(problem.getType()))) {
            ProblemType type = ProblemType.forFrameworkStatus(status.value());
            problem.setType(type.uri());
            problem.setTitle(type.title());
        }
        return super.createResponseEntity(body, headers, status, request);
    }

    /** Anything unexpected: 500 with a problem body; the cause goes to the log, not to the client. */
    @ExceptionHandler(Exception.class)
    ProblemDetail unexpected(Exception e) {
        logger.error("unexpected error", e);
        return ProblemType.INTERNAL_ERROR.problem(
                "the request failed unexpectedly; if it was a booking, look it up before retrying");
    }

    @ExceptionHandler({CannotGetJdbcConnectionException.class, CannotCreateTransactionException.class,
            DataAccessResourceFailureException.class, TransientDataAccessException.class,
            TransactionSystemException.class})
    ProblemDetail databaseUnavailable(Exception e) {
        logger.warn("database unavailable: " + e.getMessage());
        return ProblemType.DATABASE_UNAVAILABLE.problem(
                "bookings cannot be confirmed right now; nothing was booked, please retry");
    }

    @ExceptionHandler(DuplicateKeyException.class)
    ProblemDetail duplicate(DuplicateKeyException e) {
        return ProblemType.SEAT_TAKEN.problem("the seat was just taken");
    }
}
