package io.seatlock.seats.seats;

import io.seatlock.seats.booking.SeatProblem;
import io.seatlock.seats.problems.ProblemType;

/** This replica streams the map to as many pages as it may: the page polls instead. */
class MapStreamFull extends SeatProblem {
    MapStreamFull(String detail) {
        super(ProblemType.MAP_STREAM_FULL, detail + "; poll the seats instead");
    }
}
