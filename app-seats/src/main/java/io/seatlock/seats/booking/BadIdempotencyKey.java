package io.seatlock.seats.booking;

import org.springframework.http.HttpStatus;

/** An Idempotency-Key header or parameter that is not 1 to 100 printable ASCII characters. */
class BadIdempotencyKey extends SeatProblem {
    BadIdempotencyKey() {
        super(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request",
                "Idempotency-Key must be 1 to 100 printable ASCII characters; nothing was written");
    }
}
