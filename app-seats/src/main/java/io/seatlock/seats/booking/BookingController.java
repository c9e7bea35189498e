package io.seatlock.seats.booking;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;

@RestController
class BookingController {

    private final BookingService bookings;

    BookingController(BookingService bookings) {
        this.bookings = bookings;
    }

    @Operation(summary = "Book a seat", responses = {
            @ApiResponse(responseCode = "201", description = "booked; a confirmation e-mail follows"),
            @ApiResponse(responseCode = "400", description = "bad input; nothing written",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "404", description = "unknown event or seat",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "409", description = "seat-busy (someone is booking it) or seat-taken",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "503", description = "database unavailable; nothing confirmed",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class)))})
    @PostMapping("/api/events/{event}/seats/{seat}/booking")
    ResponseEntity<BookingConfirmation> book(@PathVariable String event, @PathVariable String seat,
                                             @Valid @RequestBody BookingRequest request) {
        BookingConfirmation booked = bookings.book(SeatId.parse(event, seat), request);
        return ResponseEntity.status(HttpStatus.CREATED)
                .location(URI.create("/api/events/" + event + "/seats/" + seat))
                .header("X-Bouncer", booked.bouncer())
                .body(booked);
    }
}
