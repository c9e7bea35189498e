package io.seatlock.seats.booking;

import io.seatlock.seats.problems.ProblemType;

/** The referee's conditional write matched no row: the seat was just taken. */
public class SeatAlreadyTaken extends SeatProblem {
    public SeatAlreadyTaken(SeatId seat) {
        super(ProblemType.SEAT_TAKEN, "seat " + seat.seat() + " was just taken");
        getBody().setProperty("seat", seat.seat());
    }
}
