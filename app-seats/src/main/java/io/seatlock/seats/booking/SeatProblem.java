package io.seatlock.seats.booking;

import io.seatlock.seats.problems.ProblemType;
import org.springframework.web.ErrorResponseException;


/** A booking failure the client can act on, rendered as an RFC 9457 problem. */
public abstract class SeatProblem extends ErrorResponseException {

    protected SeatProblem(ProblemType type, String detail) {
        this(type, detail, null);
    }

    protected SeatProblem(ProblemType type, String detail, Throwable cause) {
        super(type.status(), type.problem(detail), cause);
    }

    @Override
    public String getMessage() {
        return getBody().getDetail();
    }
}
