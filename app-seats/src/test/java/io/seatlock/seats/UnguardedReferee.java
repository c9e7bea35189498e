package io.seatlock.seats;

import io.seatlock.seats.booking.RefereeStatements;

/**
 * Test only: what an app that trusts its lock would write, with the {@code buyer IS NULL} guard and the
 * unique booking dropped. The 14C test and the fault suite register it to show the lock alone double-books.
 */
public final class UnguardedReferee {

    public static final RefereeStatements STATEMENTS = new RefereeStatements("""
            UPDATE seats SET buyer_email = :email, buyer_name = :name, booked_at = now(), fencing_token = :token
            WHERE event_id = :event AND label = :seat""", RefereeStatements.GUARDED.insertBooking() + """
             ON CONFLICT (event_id, seat_label) DO UPDATE SET id = EXCLUDED.id, buyer_email = EXCLUDED.buyer_email,
             buyer_name = EXCLUDED.buyer_name, fencing_token = EXCLUDED.fencing_token""");

    private UnguardedReferee() {
    }
}
