package io.seatlock.seats.booking;

import org.springframework.http.HttpStatus;

public class SeatNotFound extends SeatProblem {
    public SeatNotFound(String what) {
        super(HttpStatus.NOT_FOUND, "not-found", "Not found", what + " does not exist");
    }
}
