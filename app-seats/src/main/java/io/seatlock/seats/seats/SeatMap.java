package io.seatlock.seats.seats;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.seats.SeatsProperties;
import io.seatlock.seats.booking.SeatBooked;
import io.seatlock.seats.booking.SeatId;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The seat map's read model: events, and each seat FREE, HELD (someone is booking it: the bouncer's lock in
 * Redis) or BOOKED (PostgreSQL). For display: the answer is stale on arrival, and the referee decides.
 *
 * <p>An on-sale crowd watches the map: every viewer of an event shares one snapshot, refreshed by one view
 * at a time once it is older than {@code seats.map-max-age}. While that refresh runs, other views get the
 * previous snapshot if it is younger than {@link SeatsProperties#MAP_NEVER_OLDER_THAN}, else they wait for
 * the refresh. So a view costs Redis and PostgreSQL nothing most of the time, whatever the crowd's size.
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

    private record Snapshot(List<SeatView> seats, long takenAtNanos) {
        boolean youngerThan(Duration age) {
            return System.nanoTime() - takenAtNanos < age.toNanos();
        }
    }

    private final JdbcClient jdbc;
    private final DistributedLock lock;
    private final Duration maxAge;
    /** Only events that exist: an unknown id is never cached, so made-up ids cannot fill memory. */
    private final Map<String, Snapshot> snapshots = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Snapshot>> refreshing = new ConcurrentHashMap<>();
    /** When this replica last booked a seat of each event (events that exist only). */
    private final Map<String, Long> bookedHereAt = new ConcurrentHashMap<>();

    SeatMap(JdbcClient jdbc, DistributedLock lock, SeatsProperties properties) {
        this.jdbc = jdbc;
        this.lock = lock;
        this.maxAge = properties.mapMaxAge();
    }

    List<EventView> events() {
        return jdbc.sql("SELECT id, name, starts_at FROM events ORDER BY starts_at, id").query(EventView.class).list();
    }

    /** Every seat of the event, row by row, from the shared snapshot; empty if there is no such event. */
    List<SeatView> seats(String event) {
        Snapshot last = snapshots.get(event);
        if (last != null && last.youngerThan(maxAge)) {
            return last.seats();
        }
        CompletableFuture<Snapshot> mine = new CompletableFuture<>();
        CompletableFuture<Snapshot> running = refreshing.putIfAbsent(event, mine);
        if (running != null) {
            if (last != null && last.youngerThan(SeatsProperties.MAP_NEVER_OLDER_THAN)) {
                return last.seats();
            }
            try {
                return running.join().seats(); // bounded: the refresh's own PostgreSQL and Redis timeouts
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        }
        try {
            long started = System.nanoTime();
            Snapshot fresh = new Snapshot(load(event), started);
            Long bookedHere = bookedHereAt.get(event);
            if (!fresh.seats().isEmpty() && (bookedHere == null || bookedHere - started < 0)) {
                snapshots.put(event, fresh); // not if a booking here committed while it was read
            }
            mine.complete(fresh);
            return fresh.seats();
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            refreshing.remove(event, mine);
        }
    }

    private List<SeatView> load(String event) {
        List<SeatRow> rows = jdbc.sql("""
                        SELECT label, buyer_email IS NOT NULL AS booked, buyer_name FROM seats WHERE event_id = :event
                        ORDER BY length(substring(label from '[A-Z]+$')), substring(label from '[A-Z]+$'), length(label), label""")
                .param("event", event).query(SeatRow.class).list();
        Set<String> held = heldSeats(event, rows.stream().filter(r -> !r.booked()).map(SeatRow::label).toList());
        return rows.stream().map(r -> new SeatView(r.label(), status(r, held))).toList();
    }

    /** A booking committed here: this replica's next view of the event reads it afresh. */
    @EventListener
    void on(SeatBooked booked) {
        bookedHereAt.put(booked.seat().event(), System.nanoTime());
        snapshots.remove(booked.seat().event());
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
