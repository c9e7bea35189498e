package io.seatlock.seats.booking;

import java.util.regex.Pattern;

/** A seat of an event, e.g. concert/14C; the lock that guards it is {@code seat:concert:14C}. */
public record SeatId(String event, String seat) {

    private static final Pattern EVENT = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");
    private static final Pattern SEAT = Pattern.compile("[1-9][0-9]{0,4}[A-Z]{1,2}");

    public static SeatId parse(String event, String seat) {
        requireEventId(event);
        if (seat == null || !SEAT.matcher(seat).matches()) {
            throw new BadSeatAddress("seat label must be a seat number and a row of one or two letters, like 14C");
        }
        return new SeatId(event, seat);
    }

    /** @throws BadSeatAddress unless {@code event} is a well-formed event id */
    public static String requireEventId(String event) {
        if (event == null || !EVENT.matcher(event).matches()) {
            throw new BadSeatAddress("event id must be 1-40 lower-case letters, digits or '-'");
        }
        return event;
    }

    public String lockName() {
        return "seat:" + event + ":" + seat;
    }

    @Override
    public String toString() {
        return event + "/" + seat;
    }
}
