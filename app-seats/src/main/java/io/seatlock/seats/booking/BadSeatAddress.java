package io.seatlock.seats.booking;

import org.springframework.http.HttpStatus;

public class BadSeatAddress extends SeatProblem {
    public BadSeatAddress(String detail) {
        super(HttpStatus.BAD_REQUEST, "bad-seat-address", "Bad seat address", detail);
    }
}
