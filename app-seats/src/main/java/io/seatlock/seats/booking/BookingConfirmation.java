package io.seatlock.seats.booking;

import java.util.UUID;

/**
 * @param fencingToken the bouncer's grant this booking was made under; null when the bouncer was down
 * @param bouncer      {@code up}; {@code down} when Redis was unreachable and PostgreSQL decided alone;
 *                     {@code off} when the bouncer is switched off ({@code seats.bouncer-enabled=false})
 */
public record BookingConfirmation(UUID bookingId, String event, String seat, String buyer, Long fencingToken,
                                  String bouncer) {
}
