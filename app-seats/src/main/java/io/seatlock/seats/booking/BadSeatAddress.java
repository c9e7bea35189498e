package io.seatlock.seats.booking;

import io.seatlock.seats.problems.ProblemType;

public class BadSeatAddress extends SeatProblem {
    public BadSeatAddress(String detail) {
        super(ProblemType.BAD_SEAT_ADDRESS, detail);
    }
}
