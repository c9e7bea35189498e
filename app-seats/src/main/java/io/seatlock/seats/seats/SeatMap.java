package io.seatlock.seats.seats;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.seats.SeatsProperties;
import io.seatlock.seats.booking.SeatBooked;
import io.seatlock.seats.booking.SeatId;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
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
 *
 * <p>A snapshot is serialized once, when it is taken, and named by a hash of those bytes (its entity tag): a
 * view writes the same bytes to every viewer, or nothing at all to a viewer that already has them. Equal
 * maps have equal tags on every replica.
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
        /* By column name: Spring's record mapper looks for "buyerName" first, and the driver throws for each row. */
        static final RowMapper<SeatRow> COLUMNS = (rs, n) ->
                new SeatRow(rs.getString("label"), rs.getBoolean("booked"), rs.getString("buyer_name"));
    }

    /** The seats, as JSON, and the entity tag naming those bytes; no seats and empty bytes when there is no such event. */
    record MapView(List<SeatView> seats, byte[] json, String etag) {
        boolean found() {
            return json.length > 0;
        }
    }

    private record Snapshot(MapView view, long takenAtNanos) {
        boolean youngerThan(Duration age) {
            return System.nanoTime() - takenAtNanos < age.toNanos();
        }
    }

    private final JdbcClient jdbc;
    private final DistributedLock lock;
    private final JsonMapper json;
    private final Duration maxAge;
    /** Only events that exist: an unknown id is never cached, so made-up ids cannot fill memory. */
    private final Map<String, Snapshot> snapshots = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Snapshot>> refreshing = new ConcurrentHashMap<>();
    /** When this replica last booked a seat of each event (events that exist only). */
    private final Map<String, Long> bookedHereAt = new ConcurrentHashMap<>();

    SeatMap(JdbcClient jdbc, DistributedLock lock, JsonMapper json, SeatsProperties properties) {
        this.jdbc = jdbc;
        this.lock = lock;
        this.json = json;
        this.maxAge = properties.mapMaxAge();
    }

    List<EventView> events() {
        return jdbc.sql("SELECT id, name, starts_at FROM events ORDER BY starts_at, id").query(EventView.class).list();
    }

    /** Every seat of the event, row by row, from the shared snapshot; not found if there is no such event. */
    MapView seats(String event) {
        Snapshot last = snapshots.get(event);
        if (last != null && last.youngerThan(maxAge)) {
            return last.view();
        }
        CompletableFuture<Snapshot> mine = new CompletableFuture<>();
        CompletableFuture<Snapshot> running = refreshing.putIfAbsent(event, mine);
        if (running != null) {
            if (last != null && last.youngerThan(SeatsProperties.MAP_NEVER_OLDER_THAN)) {
                return last.view();
            }
            try {
                return running.join().view(); // bounded: the refresh's own PostgreSQL and Redis timeouts
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        }
        try {
            long started = System.nanoTime();
            Snapshot fresh = new Snapshot(serialized(load(event)), started);
            Long bookedHere = bookedHereAt.get(event);
            if (fresh.view().found() && (bookedHere == null || bookedHere - started < 0)) {
                snapshots.put(event, fresh); // not if a booking here committed while it was read
            }
            mine.complete(fresh);
            return fresh.view();
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            refreshing.remove(event, mine);
        }
    }

    private MapView serialized(List<SeatView> seats) {
        if (seats.isEmpty()) {
            return new MapView(List.of(), new byte[0], "");
        }
        byte[] bytes = json.writeValueAsBytes(seats);
        try {
            byte[] hash = Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(bytes), 16);
            return new MapView(seats, bytes, '"' + Base64.getUrlEncoder().withoutPadding().encodeToString(hash) + '"');
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * The seats of {@code to} whose status differs from {@code from}, as JSON; empty if the two maps do not list the
     * same seats in the same order (then only the whole map will do).
     */
    Optional<byte[]> changes(MapView from, MapView to) {
        List<SeatView> before = from.seats();
        List<SeatView> after = to.seats();
        if (before.size() != after.size()) {
            return Optional.empty();
        }
        List<SeatView> changed = new ArrayList<>();
        for (int i = 0; i < after.size(); i++) {
            if (!before.get(i).seat().equals(after.get(i).seat())) {
                return Optional.empty();
            }
            if (before.get(i).status() != after.get(i).status()) {
                changed.add(after.get(i));
            }
        }
        return Optional.of(json.writeValueAsBytes(changed));
    }

    private List<SeatView> load(String event) {
        List<SeatRow> rows = jdbc.sql("""
                        SELECT label, buyer_email IS NOT NULL AS booked, buyer_name FROM seats WHERE event_id = :event
                        ORDER BY length(substring(label from '[A-Z]+$')), substring(label from '[A-Z]+$'), length(label), label""")
                .param("event", event).query(SeatRow.COLUMNS).list();
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
                .param("event", id.event()).param("seat", id.seat()).query(SeatRow.COLUMNS).optional()
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
     * only (one MGET of their lock keys), so a refresh costs one command however many seats, and the same however
     * much else Redis holds.
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
