package io.seatlock.seats.booking;

import io.seatlock.seats.problems.ProblemType;

/** An Idempotency-Key header or parameter that is not 1 to 100 printable ASCII characters. */
class BadIdempotencyKey extends SeatProblem {
    BadIdempotencyKey() {
        super(ProblemType.INVALID_REQUEST,
                "Idempotency-Key must be 1 to 100 printable ASCII characters; nothing was written");
    }
}
