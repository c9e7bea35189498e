package io.seatlock.seats.booking;

/**
 * The referee's two writes: the conditional claim of the seat and the booking row. The production app
 * has exactly one pair, {@link #GUARDED}; a test that must show what goes wrong without the guard
 * registers its own pair as a bean.
 *
 * @param claim         binds {@code email, name, token, event, seat}; must match 0 rows for a sold seat
 * @param insertBooking binds {@code id, event, seat, email, name, token, key} (the client's Idempotency-Key)
 */
public record RefereeStatements(String claim, String insertBooking) {

    public static final RefereeStatements GUARDED = new RefereeStatements("""
            UPDATE seats SET buyer_email = :email, buyer_name = :name, booked_at = now(), fencing_token = :token
            WHERE event_id = :event AND label = :seat AND buyer_email IS NULL""", """
            INSERT INTO bookings (id, event_id, seat_label, buyer_email, buyer_name, fencing_token, idempotency_key)
            VALUES (:id, :event, :seat, :email, :name, :token, :key)""");
}
