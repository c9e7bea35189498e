package io.seatlock.seats.faults;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What clients saw, Jepsen style: each booking attempt ends {@code OK} (201), {@code FAIL} (a 4xx:
 * definitely nothing written) or {@code INFO} (5xx, timeout, cut connection: unknown).
 */
final class BookingHistory {

    enum Outcome { OK, FAIL, INFO }

    record Op(String seat, String buyer, Outcome outcome, String bookingId) {
    }

    private static final Pattern BOOKING_ID = Pattern.compile("\"bookingId\":\"([0-9a-f-]+)\"");
    private final List<Op> ops = new CopyOnWriteArrayList<>();

    void record(String seat, String buyer, HttpResponse<String> response) {
        int status = response.statusCode();
        if (status == 201) {
            Matcher m = BOOKING_ID.matcher(response.body());
            ops.add(new Op(seat, buyer, Outcome.OK, m.find() ? m.group(1) : null));
        } else if (status >= 400 && status < 500) {
            ops.add(new Op(seat, buyer, Outcome.FAIL, null));
        } else {
            ops.add(new Op(seat, buyer, Outcome.INFO, null));
        }
    }

    void recordUnknown(String seat, String buyer) {
        ops.add(new Op(seat, buyer, Outcome.INFO, null));
    }

    List<Op> ops() {
        return List.copyOf(ops);
    }

    long count(Outcome outcome) {
        return ops.stream().filter(o -> o.outcome() == outcome).count();
    }
}
