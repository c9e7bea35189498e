package io.seatlock.seats.booking;

/**
 * Published after a booking committed on this replica, so this replica's seat map shows it at once
 * (other replicas' maps within their snapshot age).
 *
 * @param seat the seat now booked
 */
public record SeatBooked(SeatId seat) {
}
