package io.seatlock.seats.booking;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

import java.net.URI;

/** A booking failure the client can act on, rendered as an RFC 9457 problem. */
public abstract class SeatProblem extends ErrorResponseException {

    protected SeatProblem(HttpStatus status, String type, String title, String detail) {
        this(status, type, title, detail, null);
    }

    protected SeatProblem(HttpStatus status, String type, String title, String detail, Throwable cause) {
        super(status, problem(status, type, title, detail), cause);
    }

    private static ProblemDetail problem(HttpStatus status, String type, String title, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create("/problems/" + type));
        problem.setTitle(title);
        return problem;
    }

    @Override
    public String getMessage() {
        return getBody().getDetail();
    }
}
