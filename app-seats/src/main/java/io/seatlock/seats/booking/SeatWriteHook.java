package io.seatlock.seats.booking;

/**
 * A seam right before the referee's write, where a process can pause (GC, VM stall). Only tests
 * provide one, to hold a holder there until its lease has expired; the app itself defines none.
 */
@FunctionalInterface
public interface SeatWriteHook {
    void beforeWrite(SeatId seat, BookingRequest request);
}
