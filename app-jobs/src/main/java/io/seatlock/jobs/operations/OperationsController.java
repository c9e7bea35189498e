package io.seatlock.jobs.operations;

import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;

/**
 * {@code /api/operations}: the data behind the operations page ({@code /}). Read-only. When this replica
 * cannot read PostgreSQL it answers a 503 problem ({@code /problems/operations-unavailable}) saying why,
 * never a view of zeros that would read as real.
 */
@RestController
class OperationsController {

    static final URI UNAVAILABLE = URI.create("/problems/operations-unavailable");
    private static final Logger log = LoggerFactory.getLogger(OperationsController.class);

    private final OperationsReadModel operations;

    OperationsController(OperationsReadModel operations) {
        this.operations = operations;
    }

    @GetMapping("/api/operations")
    OperationsView operations() {
        return operations.read();
    }

    /**
     * Flyway, which reads the migration history, reports a broken link in exceptions of its own: they are the same
     * outage as the SQL reads', so the same 503, not the app's catch-all 500 ({@code ProblemHandler}).
     */
    @ExceptionHandler({DataAccessException.class, FlywayException.class})
    ProblemDetail databaseUnavailable(RuntimeException e) {
        String reason = deepestMessage(e);
        log.warn("operations page: PostgreSQL cannot be read: {}", reason);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                "This replica cannot read its database: " + reason);
        problem.setType(UNAVAILABLE);
        problem.setTitle("Operations unavailable");
        return problem;
    }

    /** The innermost cause that says something (a broken socket's EOFException says nothing). */
    private static String deepestMessage(Throwable e) {
        String message = e.getClass().getSimpleName();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                message = t.getMessage();
            }
        }
        return message;
    }
}
