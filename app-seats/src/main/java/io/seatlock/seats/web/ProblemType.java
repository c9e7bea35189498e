package io.seatlock.seats.web;

import java.net.URI;

/** Every problem type the API answers with; the OpenAPI description lists them from here. */
enum ProblemType {
    SEAT_BUSY("seat-busy", 409, "someone holds the seat's lock now; `Retry-After` says when to try again"),
    SEAT_TAKEN("seat-taken", 409, "the seat is sold (from the Redis hint or the conditional write)"),
    NOT_FOUND("not-found", 404, "unknown event, seat or path"),
    BAD_SEAT_ADDRESS("bad-seat-address", 400, "malformed event or seat label in the path"),
    INVALID_REQUEST("invalid-request", 400, "a field fails validation (`errors` lists them), a malformed "
            + "`Idempotency-Key`, or another client error"),
    UNREADABLE_BODY("unreadable-body", 400, "malformed JSON, an empty body, an array or a string instead of an object"),
    BODY_TOO_LARGE("body-too-large", 413, "over 16 KiB, declared or not"),
    METHOD_NOT_ALLOWED("method-not-allowed", 405, "e.g. `GET` on the booking resource"),
    NOT_ACCEPTABLE("not-acceptable", 406, "no acceptable representation"),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", 415, "the body is not `application/json`"),
    DATABASE_UNAVAILABLE("database-unavailable", 503, "PostgreSQL could not be reached before anything was "
            + "written: nothing was booked"),
    OUTCOME_UNKNOWN("outcome-unknown", 503, "the connection broke during the booking's COMMIT: it may be booked; "
            + "retry with the same `Idempotency-Key` or look it up"),
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", 422, "the `Idempotency-Key` already names a booking of another seat"),
    INTERNAL_ERROR("internal-error", 500, "anything unexpected (logged); look a booking up before retrying");

    private final String slug;
    private final int status;
    private final String when;

    ProblemType(String slug, int status, String when) {
        this.slug = slug;
        this.status = status;
        this.when = when;
    }

    URI uri() {
        return URI.create("/problems/" + slug);
    }

    int status() {
        return status;
    }

    String when() {
        return when;
    }
}
