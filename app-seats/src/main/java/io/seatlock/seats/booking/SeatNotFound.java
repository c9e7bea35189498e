package io.seatlock.seats.booking;

import io.seatlock.seats.problems.ProblemType;

public class SeatNotFound extends SeatProblem {
    public SeatNotFound(String what) {
        super(ProblemType.NOT_FOUND, what + " does not exist");
    }
}
