package io.seatlock.seats.booking;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** What the bouncer (the seat's Redis lock) did for a booking; sent as the {@code bouncer} field and {@code X-Bouncer}. */
public enum BouncerState {
    /** The lock was taken: the crowd was kept away. */
    UP,
    /** Redis was unreachable; PostgreSQL decided alone. */
    DOWN,
    /** The bouncer is switched off ({@code seats.bouncer-enabled=false}). */
    OFF,
    /** An earlier booking returned again for its Idempotency-Key; what its bouncer did is not kept. */
    REPLAYED;

    /** The lower-case word on the wire. */
    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
