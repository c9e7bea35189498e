package io.seatlock.seats.booking;

import java.util.UUID;

/**
 * @param fencingToken the bouncer's grant this booking was made under; null when the bouncer was down
 * @param bouncer      {@code up}, or {@code down} when Redis was unreachable and PostgreSQL decided alone
 */
public record BookingConfirmation(UUID bookingId, String event, String seat, String buyer, Long fencingToken,
                                  String bouncer) {
}
