package io.seatlock.seats.booking;

import io.seatlock.seats.problems.ProblemType;

/** An Idempotency-Key header or parameter that is not one key of 1 to 100 printable ASCII characters but the comma. */
class BadIdempotencyKey extends SeatProblem {
    BadIdempotencyKey() {
        super(ProblemType.INVALID_REQUEST,
                "Idempotency-Key must be one key of 1 to 100 printable ASCII characters other than the comma; "
                        + "nothing was written");
    }
}
