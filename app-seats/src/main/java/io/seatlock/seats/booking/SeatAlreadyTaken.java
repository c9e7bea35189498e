package io.seatlock.seats.booking;

import org.springframework.http.HttpStatus;

/** The referee's conditional write matched no row: the seat was just taken. */
public class SeatAlreadyTaken extends SeatProblem {
    public SeatAlreadyTaken(SeatId seat) {
        super(HttpStatus.CONFLICT, "seat-taken", "Seat taken", "seat " + seat.seat() + " was just taken");
        getBody().setProperty("seat", seat.seat());
    }
}
