package io.seatlock.seats.problems;

import io.seatlock.demo.web.ContainerProblems;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import java.net.URI;

/**
 * Every problem type the API answers with, in one place: the exception handler, the booking exceptions,
 * the body-size filter and the OpenAPI description all read it, and a test holds the README's table to it.
 */
public enum ProblemType {
    SEAT_BUSY("seat-busy", "Seat busy", 409, "someone holds the seat's lock now; `Retry-After` says when to try again"),
    SEAT_TAKEN("seat-taken", "Seat taken", 409, "the seat is sold (from the Redis hint or the conditional write)"),
    NOT_FOUND("not-found", "Not found", 404, "unknown event, seat or path"),
    BAD_SEAT_ADDRESS("bad-seat-address", "Bad seat address", 400, "malformed event or seat label in the path"),
    INVALID_REQUEST("invalid-request", "Invalid request", 400, "a field fails validation or is not a JSON string (`errors` "
            + "lists them), a malformed `Idempotency-Key`, or another client error"),
    UNREADABLE_BODY("unreadable-body", "Unreadable body", 400, "malformed JSON, an empty body, an array or a string instead of an "
            + "object, a field given twice"),
    BODY_TOO_LARGE("body-too-large", "Body too large", 413, "over 16 KiB, declared or not"),
    METHOD_NOT_ALLOWED("method-not-allowed", "Method not allowed", 405, "e.g. `GET` on the booking resource"),
    NOT_ACCEPTABLE("not-acceptable", "Not acceptable", 406, "no acceptable representation"),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", "Unsupported media type", 415, "the body is not `application/json`"),
    DATABASE_UNAVAILABLE("database-unavailable", "Database unavailable", 503, "PostgreSQL could not be reached before anything was "
            + "written: nothing was booked"),
    OUTCOME_UNKNOWN("outcome-unknown", "Outcome unknown", 503, "the connection broke during the booking's COMMIT: it may be booked; "
            + "retry with the same `Idempotency-Key` or look it up"),
    MAP_STREAM_FULL("map-stream-full", "Map stream full", 503, "this replica pushes the seat map to `seats.map-max-viewers` "
            + "pages already (or is shutting down); poll `GET /api/events/{event}/seats` instead"),
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", "Idempotency-Key reused", 422, "the `Idempotency-Key` already names a booking of another seat, "
            + "or of this seat for another buyer"),
    INTERNAL_ERROR("internal-error", "Internal error", 500, "anything unexpected (logged); look a booking up before retrying");

    private static final String PREFIX = "/problems/";

    private final String slug;
    private final String title;
    private final int status;
    private final String when;

    ProblemType(String slug, String title, int status, String when) {
        this.slug = slug;
        this.title = title;
        this.status = status;
        this.when = when;
    }

    /** The problem's {@code type}. */
    public URI uri() {
        return URI.create(PREFIX + slug);
    }

    public String title() {
        return title;
    }

    public HttpStatus status() {
        return HttpStatus.valueOf(status);
    }

    /** When the API answers with it (the README's and the OpenAPI description's wording). */
    public String when() {
        return when;
    }

    /** A problem body of this type. */
    public ProblemDetail problem(String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status(), detail);
        problem.setType(uri());
        problem.setTitle(title);
        return problem;
    }

    /** This type for a problem Tomcat answers by itself. */
    public ContainerProblems.Type containerType() {
        return new ContainerProblems.Type(uri(), title);
    }

    /** The type Spring MVC's own errors (unknown path, wrong method or media type, ...) get, by their status. */
    public static ProblemType forFrameworkStatus(int status) {
        return switch (status) {
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 413 -> BODY_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            default -> status >= 400 && status < 500 ? INVALID_REQUEST : INTERNAL_ERROR;
        };
    }
}
