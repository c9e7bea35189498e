package io.seatlock.seats.booking;

import java.util.UUID;

/**
 * @param fencingToken the bouncer's grant this booking was made under; null when the bouncer was down
 * @param bouncer      what the bouncer did for this booking
 */
public record BookingConfirmation(UUID bookingId, String event, String seat, String buyer, Long fencingToken,
                                  BouncerState bouncer) {
}
