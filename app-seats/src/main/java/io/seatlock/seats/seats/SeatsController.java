package io.seatlock.seats.seats;

import io.seatlock.seats.SeatsProperties;
import io.seatlock.seats.booking.SeatId;
import io.seatlock.seats.booking.SeatNotFound;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.util.List;

/** What a buyer sees: events, and each seat FREE, HELD (someone is booking it) or BOOKED. */
@RestController
@Tag(name = "Seats", description = "Events on sale and the state of each seat")
class SeatsController {

    private final SeatMap seatMap;
    private final SeatMapStream stream;

    SeatsController(SeatMap seatMap, SeatMapStream stream) {
        this.seatMap = seatMap;
        this.stream = stream;
    }

    @Operation(summary = "Events on sale, soonest first")
    @GetMapping("/api/events")
    List<SeatMap.EventView> events() {
        return seatMap.events();
    }

    @Operation(summary = "Every seat of an event: FREE, HELD (someone is booking it now) or BOOKED", description = """
            The map is at most 2 s old. Each answer carries an ETag and Cache-Control: no-cache: a client that sends \
            it back in If-None-Match gets 304 Not Modified, with no body, while the map is unchanged (a browser's \
            cache does this by itself).""", responses = {
            @ApiResponse(responseCode = "200", description = "the seats, row by row", content = @Content(
                    mediaType = "application/json", array = @ArraySchema(schema = @Schema(implementation = SeatMap.SeatView.class)))),
            @ApiResponse(responseCode = "304", description = "not modified: the map is the one the If-None-Match ETag names"),
            @ApiResponse(responseCode = "400", description = "bad-seat-address: malformed event id",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "404", description = "not-found: no such event",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class)))})
    @GetMapping("/api/events/{event}/seats")
    ResponseEntity<byte[]> seats(@PathVariable String event) {
        SeatId.requireEventId(event);
        SeatMap.MapView map = seatMap.seats(event);
        if (!map.found()) {
            throw new SeatNotFound("event " + event);
        }
        // Spring answers 304 for a GET whose If-None-Match names this ETag, and writes no body.
        return ResponseEntity.ok().eTag(map.etag()).cacheControl(CacheControl.noCache())
                .contentType(MediaType.APPLICATION_JSON).body(map.json());
    }

    @Operation(summary = "The seat map pushed to a page: server-sent events, one whenever the map changes", description = """
            The first event is the whole map (as GET .../seats answers it) on one data line, with the map's ETag as its \
            id; then, whenever the map changes (at most every seats.map-max-age, never more than 2 s after the change), \
            a "change" event lists only the seats whose status changed, its id the ETag of the map they lead to; a viewer \
            that missed one gets the whole map again. A comment line keeps a quiet stream alive every \
            """ + SeatMapStream.HEARTBEAT_SECONDS + " s. The stream ends after seats.map-stream-lifetime ("
            + SeatsProperties.DEFAULT_MAP_STREAM_LIFETIME + " by default), or when the viewer cannot take data for " + SeatMapStream.STUCK_AFTER_SECONDS
            + " s; an EventSource reconnects by itself (retry " + SeatMapStream.RECONNECT_SECONDS + " s).",
            responses = {
            @ApiResponse(responseCode = "200", description = "the stream",
                    content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM_VALUE)),
            @ApiResponse(responseCode = "400", description = "bad-seat-address: malformed event id",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "404", description = "not-found: no such event",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "503", description = "map-stream-full: poll GET .../seats instead",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class)))})
    @GetMapping(value = "/api/events/{event}/seats/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    void stream(@PathVariable String event, HttpServletRequest request, HttpServletResponse response) throws IOException {
        SeatId.requireEventId(event);
        stream.subscribe(event, request, response);
    }

    @Operation(summary = "One seat; the buyer's name when booked (never the e-mail)", responses = {
            @ApiResponse(responseCode = "200", description = "the seat"),
            @ApiResponse(responseCode = "400", description = "bad-seat-address: malformed event id or seat label",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "404", description = "not-found: no such event or seat",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class)))})
    // Not "stream": the stream asked for as another type is 406, not a seat label that fails to parse
    @GetMapping("/api/events/{event}/seats/{seat:(?!stream$).+}")
    SeatMap.SeatDetail seat(@PathVariable String event, @PathVariable String seat) {
        SeatId id = SeatId.parse(event, seat);
        return seatMap.seat(id).orElseThrow(() -> new SeatNotFound("seat " + id));
    }
}
