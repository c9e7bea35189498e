package io.seatlock.seats.booking;

import io.seatlock.seats.problems.ProblemType;
import org.springframework.http.HttpHeaders;

import java.time.Duration;

/** Someone is booking that seat right now (answered from Redis alone). */
public class SeatBusy extends SeatProblem {

    private final HttpHeaders headers = new HttpHeaders();

    public SeatBusy(SeatId seat, Duration retryAfter) {
        super(ProblemType.SEAT_BUSY, "someone is booking seat " + seat.seat()
                + " right now; try again shortly");
        long seconds = Math.max(1, (retryAfter.toMillis() + 999) / 1000);
        headers.set(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
        getBody().setProperty("seat", seat.seat());
        getBody().setProperty("retryAfterSeconds", seconds);
    }

    @Override
    public HttpHeaders getHeaders() {
        return headers;
    }
}
