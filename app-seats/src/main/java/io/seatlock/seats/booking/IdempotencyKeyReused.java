package io.seatlock.seats.booking;

import io.seatlock.seats.problems.ProblemType;

/** An Idempotency-Key that already named a booking of another seat, or of this seat for another buyer. */
class IdempotencyKeyReused extends SeatProblem {
    IdempotencyKeyReused(SeatId seat) {
        super(ProblemType.IDEMPOTENCY_KEY_REUSED,
                "this Idempotency-Key already names a booking of another seat, or of " + seat
                        + " for another buyer; use a new key");
    }
}
