package io.seatlock.seats.booking;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.util.regex.Pattern;

@RestController
@Tag(name = "Bookings", description = "Book a seat; look a booking up by its Idempotency-Key")
class BookingController {

    /**
     * Printable ASCII but the comma: the servlet API joins two header lines (or two parameters) with a comma, and a
     * booking must not be kept under a key its client never sent.
     */
    private static final Pattern IDEMPOTENCY_KEY = Pattern.compile("[\\x21-\\x2B\\x2D-\\x7E]{1,100}");

    private final BookingService bookings;

    BookingController(BookingService bookings) {
        this.bookings = bookings;
    }

    @Operation(summary = "Book a seat", responses = {
            @ApiResponse(responseCode = "201", description = "booked; a confirmation e-mail follows"),
            @ApiResponse(responseCode = "400", description = "invalid-request, unreadable-body or bad-seat-address: bad input; nothing written",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "404", description = "not-found: unknown event or seat",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "409", description = "seat-busy (someone is booking it) or seat-taken",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "413", description = "body-too-large: over 16 KiB; nothing written",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "422", description = "idempotency-key-reused: the key names a booking of another seat, "
                    + "or of this seat for another buyer",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "503", description = "database-unavailable (nothing was booked) or "
                    + "outcome-unknown (the connection broke during COMMIT: retry with the same Idempotency-Key)",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class)))})
    @PostMapping("/api/events/{event}/seats/{seat}/booking")
    ResponseEntity<BookingConfirmation> book(@PathVariable String event, @PathVariable String seat,
                                             @RequestHeader(name = "Idempotency-Key", required = false) String key,
                                             @Valid @RequestBody BookingRequest request) {
        BookingConfirmation booked = bookings.book(SeatId.parse(event, seat), request, requireValidKey(key));
        return ResponseEntity.status(HttpStatus.CREATED)
                .location(URI.create("/api/events/" + event + "/seats/" + seat))
                .header("X-Bouncer", booked.bouncer().wire())
                .body(booked);
    }

    @Operation(summary = "Look a booking up by the Idempotency-Key it was made with", responses = {
            @ApiResponse(responseCode = "200", description = "that key made this booking"),
            @ApiResponse(responseCode = "400", description = "invalid-request: malformed key",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "404", description = "not-found: no booking was made with that key",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class)))})
    @GetMapping("/api/bookings")
    BookingConfirmation byIdempotencyKey(@RequestParam("idempotency-key") String key) {
        return bookings.find(requireValidKey(key))
                .orElseThrow(() -> new SeatNotFound("a booking made with that Idempotency-Key"));
    }

    private static String requireValidKey(String key) {
        if (key != null && !IDEMPOTENCY_KEY.matcher(key).matches()) {
            throw new BadIdempotencyKey();
        }
        return key;
    }
}
