package io.seatlock.seats.booking;

import io.seatlock.seats.problems.ProblemType;

/** An Idempotency-Key that already named a booking of another seat. */
class IdempotencyKeyReused extends SeatProblem {
    IdempotencyKeyReused(SeatId seat) {
        super(ProblemType.IDEMPOTENCY_KEY_REUSED,
                "this Idempotency-Key already names a booking of another seat than " + seat + "; use a new key");
    }
}
