package io.seatlock.seats.seats;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.seats.booking.SeatId;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * The seat map's read model: events, and each seat FREE, HELD (someone is booking it: the bouncer's lock in
 * Redis) or BOOKED (PostgreSQL). For display: the answer is stale on arrival, and the referee decides.
 */
@Component
class SeatMap {

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

    SeatMap(JdbcClient jdbc, DistributedLock lock) {
        this.jdbc = jdbc;
        this.lock = lock;
    }

    List<EventView> events() {
        return jdbc.sql("SELECT id, name, starts_at FROM events ORDER BY starts_at, id").query(EventView.class).list();
    }

    /** Every seat of the event, row by row; empty if there is no such event. */
    List<SeatView> seats(String event) {
        List<SeatRow> rows = jdbc.sql("""
                        SELECT label, buyer_email IS NOT NULL AS booked, buyer_name FROM seats WHERE event_id = :event
                        ORDER BY length(substring(label from '[A-Z]+$')), substring(label from '[A-Z]+$'), length(label), label""")
                .param("event", event).query(SeatRow.class).list();
        Set<String> held = heldSeats(event, rows.stream().filter(r -> !r.booked()).map(SeatRow::label).toList());
        return rows.stream().map(r -> new SeatView(r.label(), status(r, held))).toList();
    }

    /** One seat, with the buyer's name when booked (never the e-mail). */
    Optional<SeatDetail> seat(SeatId id) {
        return jdbc.sql("""
                        SELECT label, buyer_email IS NOT NULL AS booked, buyer_name FROM seats
                        WHERE event_id = :event AND label = :seat""")
                .param("event", id.event()).param("seat", id.seat()).query(SeatRow.class).optional()
                .map(row -> new SeatDetail(row.label(), status(row, row.booked() ? Set.of()
                        : heldSeats(id.event(), List.of(row.label()))), row.booked() ? row.buyerName() : null));
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
