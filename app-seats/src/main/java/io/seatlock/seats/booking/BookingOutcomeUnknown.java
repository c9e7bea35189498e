package io.seatlock.seats.booking;

import io.seatlock.seats.problems.ProblemType;

/**
 * The connection to PostgreSQL broke while the booking's COMMIT was under way: it may have been booked
 * or not, and the app cannot know. Never reported as "nothing was booked".
 */
class BookingOutcomeUnknown extends SeatProblem {
    BookingOutcomeUnknown(SeatId seat, String idempotencyKey, Throwable cause) {
        super(ProblemType.OUTCOME_UNKNOWN,
                "the database connection broke while booking " + seat.seat() + " was being committed: it may or "
                        + "may not be booked. " + (idempotencyKey == null
                        ? "Look at the seat (GET /api/events/" + seat.event() + "/seats/" + seat.seat() + ")"
                        : "Retry with the same Idempotency-Key, or look it up (GET /api/bookings?idempotency-key=...)")
                        + " before booking again.", cause);
    }
}
