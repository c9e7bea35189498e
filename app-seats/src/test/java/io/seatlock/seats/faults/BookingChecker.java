package io.seatlock.seats.faults;

import io.seatlock.seats.faults.BookingHistory.Op;
import io.seatlock.seats.faults.BookingHistory.Outcome;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a booking history against the data it left: no seat confirmed to two people, no confirmed
 * booking missing, no booking nobody asked for, one confirmation e-mail per booking and none for
 * anyone else. Returns the violations; empty means the run kept every promise.
 */
final class BookingChecker {

    private record Booking(String id, String seat, String buyer) {
    }

    private BookingChecker() {
    }

    /**
     * @param mailKeysByRecipient distinct {@code Idempotency-Key}s each recipient received
     *                            (a provider deduplicates by that key)
     */
    static List<String> check(BookingHistory history, JdbcClient db, String event, Set<String> seats,
                              Map<String, Set<String>> mailKeysByRecipient) {
        List<String> violations = new ArrayList<>();
        List<Op> ops = history.ops().stream().filter(o -> seats.contains(o.seat())).toList();
        List<Booking> bookings = db.sql("SELECT id::text, seat_label, buyer_email FROM bookings WHERE event_id = ?")
                .params(event).query((rs, n) -> new Booking(rs.getString(1), rs.getString(2), rs.getString(3)))
                .list().stream().filter(b -> seats.contains(b.seat())).toList();

        Map<String, List<Op>> okBySeat = ops.stream().filter(o -> o.outcome() == Outcome.OK)
                .collect(Collectors.groupingBy(Op::seat));
        okBySeat.forEach((seat, oks) -> {
            if (oks.size() > 1) {
                violations.add("seat " + seat + " confirmed to " + oks.size() + " buyers: "
                        + oks.stream().map(Op::buyer).toList());
            }
        });
        Map<String, Booking> bookingById = new HashMap<>();
        bookings.forEach(b -> bookingById.put(b.id(), b));
        for (Op ok : ops.stream().filter(o -> o.outcome() == Outcome.OK).toList()) {
            Booking row = bookingById.get(ok.bookingId());
            if (row == null || !row.buyer().equals(ok.buyer()) || !row.seat().equals(ok.seat())) {
                violations.add("confirmed booking " + ok.bookingId() + " (" + ok.seat() + " for " + ok.buyer()
                        + ") is not in the database as confirmed");
            }
        }
        Set<String> okIds = ops.stream().filter(o -> o.outcome() == Outcome.OK).map(Op::bookingId).collect(Collectors.toSet());
        Set<String> unknown = ops.stream().filter(o -> o.outcome() == Outcome.INFO).map(o -> o.seat() + "|" + o.buyer())
                .collect(Collectors.toSet());
        for (Booking b : bookings) {
            if (!okIds.contains(b.id()) && !unknown.contains(b.seat() + "|" + b.buyer())) {
                violations.add("booking " + b.id() + " (" + b.seat() + " for " + b.buyer() + ") was never confirmed "
                        + "nor left unknown: a phantom");
            }
        }
        Map<String, Long> seatRowsPerSeat = db.sql("SELECT label, count(*) FROM seats WHERE event_id = ? AND buyer_email IS NOT NULL GROUP BY label")
                .params(event).query((rs, n) -> Map.entry(rs.getString(1), rs.getLong(2))).list().stream()
                .filter(e -> seats.contains(e.getKey())).collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        Set<String> bookedSeats = bookings.stream().map(Booking::seat).collect(Collectors.toSet());
        if (!seatRowsPerSeat.keySet().equals(bookedSeats)) {
            violations.add("seats with a buyer " + seatRowsPerSeat.keySet() + " differ from seats with a booking " + bookedSeats);
        }

        Set<String> buyersInRun = ops.stream().map(Op::buyer).collect(Collectors.toSet());
        Map<String, String> bookedBy = bookings.stream().collect(Collectors.toMap(Booking::buyer, Booking::seat, (a, b) -> a));
        for (String buyer : buyersInRun) {
            int received = mailKeysByRecipient.getOrDefault(buyer, Set.of()).size();
            int expected = bookedBy.containsKey(buyer) ? 1 : 0;
            if (received != expected) {
                violations.add(buyer + " received " + received + " distinct confirmation e-mail(s), expected " + expected);
            }
        }
        return violations;
    }
}
