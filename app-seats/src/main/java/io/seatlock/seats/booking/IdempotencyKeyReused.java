package io.seatlock.seats.booking;

import org.springframework.http.HttpStatus;

/** An Idempotency-Key that already named a booking of another seat. */
class IdempotencyKeyReused extends SeatProblem {
    IdempotencyKeyReused(SeatId seat) {
        super(HttpStatus.UNPROCESSABLE_CONTENT, "idempotency-key-reused", "Idempotency-Key reused",
                "this Idempotency-Key already names a booking of another seat than " + seat + "; use a new key");
    }
}
