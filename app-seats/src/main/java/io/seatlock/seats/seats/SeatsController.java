package io.seatlock.seats.seats;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.seats.booking.SeatId;
import io.seatlock.seats.booking.SeatNotFound;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.ProblemDetail;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** What a buyer sees: events, and each seat FREE, HELD (someone is booking it) or BOOKED. */
@RestController
@Tag(name = "Seats", description = "Events on sale and the state of each seat")
class SeatsController {

    record EventView(String id, String name, OffsetDateTime startsAt) {
    }

    record SeatView(String seat, SeatStatus status) {
    }

    record SeatDetail(String seat, SeatStatus status, String buyerName) {
    }

    enum SeatStatus { FREE, HELD, BOOKED }

    private record SeatRow(String label, boolean booked, String buyerName) {
    }

    private final JdbcClient jdbc;
    private final DistributedLock lock;

    SeatsController(JdbcClient jdbc, DistributedLock lock) {
        this.jdbc = jdbc;
        this.lock = lock;
    }

    @Operation(summary = "Events on sale, soonest first")
    @GetMapping("/api/events")
    List<EventView> events() {
        return jdbc.sql("SELECT id, name, starts_at FROM events ORDER BY starts_at, id").query(EventView.class).list();
    }

    @Operation(summary = "Every seat of an event: FREE, HELD (someone is booking it now) or BOOKED", responses = {
            @ApiResponse(responseCode = "200", description = "the seats, row by row"),
            @ApiResponse(responseCode = "400", description = "bad-seat-address: malformed event id",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "404", description = "not-found: no such event",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class)))})
    @GetMapping("/api/events/{event}/seats")
    List<SeatView> seats(@PathVariable String event) {
        SeatId.requireEventId(event);
        List<SeatRow> rows = jdbc.sql("""
                        SELECT label, buyer_email IS NOT NULL AS booked, buyer_name FROM seats WHERE event_id = :event
                        ORDER BY length(substring(label from '[A-Z]+$')), substring(label from '[A-Z]+$'), length(label), label""")
                .param("event", event).query(SeatRow.class).list();
        if (rows.isEmpty()) {
            throw new SeatNotFound("event " + event);
        }
        Set<String> held = heldSeats(event, rows.stream().filter(r -> !r.booked()).map(SeatRow::label).toList());
        return rows.stream().map(r -> new SeatView(r.label(), status(r, held))).toList();
    }

    @Operation(summary = "One seat; the buyer's name when booked (never the e-mail)", responses = {
            @ApiResponse(responseCode = "200", description = "the seat"),
            @ApiResponse(responseCode = "400", description = "bad-seat-address: malformed event id or seat label",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class))),
            @ApiResponse(responseCode = "404", description = "not-found: no such event or seat",
                    content = @Content(schema = @Schema(implementation = ProblemDetail.class)))})
    @GetMapping("/api/events/{event}/seats/{seat}")
    SeatDetail seat(@PathVariable String event, @PathVariable String seat) {
        SeatId id = SeatId.parse(event, seat);
        SeatRow row = jdbc.sql("""
                        SELECT label, buyer_email IS NOT NULL AS booked, buyer_name FROM seats
                        WHERE event_id = :event AND label = :seat""")
                .param("event", id.event()).param("seat", id.seat()).query(SeatRow.class).optional()
                .orElseThrow(() -> new SeatNotFound("seat " + id));
        SeatStatus status = status(row, row.booked() ? Set.of() : heldSeats(event, List.of(row.label())));
        return new SeatDetail(row.label(), status, row.booked() ? row.buyerName() : null);
    }

    private static SeatStatus status(SeatRow row, Set<String> held) {
        if (row.booked()) {
            return SeatStatus.BOOKED;
        }
        return held.contains(row.label()) ? SeatStatus.HELD : SeatStatus.FREE;
    }

    /**
     * Which of these free seats someone is booking right now; none if Redis is down. Asks about these seats
     * only (one EXISTS each, sent together), so a view costs the same however much else Redis holds.
     */
    private Set<String> heldSeats(String event, List<String> freeLabels) {
        Map<String, String> labelByLock = freeLabels.stream()
                .collect(Collectors.toMap(label -> new SeatId(event, label).lockName(), label -> label));
        try {
            return lock.held(labelByLock.keySet()).stream().map(labelByLock::get).collect(Collectors.toSet());
        } catch (LockUnavailableException e) {
            return Set.of();
        }
    }
}
