package io.seatlock.seats.booking;

import io.seatlock.lock.FencingToken;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Decides who gets a seat, in PostgreSQL: one conditional UPDATE (the row is re-checked under its row
 * lock, so of two writers exactly one matches), the booking row (unique per seat) and the confirmation
 * e-mail in the outbox, all in one transaction. No lock is needed for this to be correct.
 */
@Component
class SeatReferee {

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    /** The conditional claim: matches 0 rows for a sold seat, whatever any lock said. */
    private static final String CLAIM = """
            UPDATE seats SET buyer_email = :email, buyer_name = :name, booked_at = now(), fencing_token = :token
            WHERE event_id = :event AND label = :seat AND buyer_email IS NULL""";
    /** The booking row; its unique (event, seat) key is the second guard. */
    private static final String INSERT_BOOKING = """
            INSERT INTO bookings (id, event_id, seat_label, buyer_email, buyer_name, fencing_token, idempotency_key)
            VALUES (:id, :event, :seat, :email, :name, :token, :key)""";

    SeatReferee(JdbcClient jdbc, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.transactions = transactions;
    }

    /** The holder's look before it writes: empty if the seat does not exist, else whether it is free. */
    @Transactional(readOnly = true)
    public Optional<Boolean> isFree(SeatId seat) {
        return jdbc.sql("SELECT buyer_email IS NULL FROM seats WHERE event_id = :event AND label = :seat")
                .param("event", seat.event()).param("seat", seat.seat())
                .query(Boolean.class).optional();
    }

    /** The booking this key made, if any (its confirmation as first returned, but for the bouncer state). */
    @Transactional(readOnly = true)
    public Optional<BookingConfirmation> findByIdempotencyKey(String idempotencyKey) {
        return jdbc.sql("SELECT id, event_id, seat_label, buyer_email, fencing_token FROM bookings "
                        + "WHERE idempotency_key = :key")
                .param("key", idempotencyKey)
                .query((rs, n) -> new BookingConfirmation(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3),
                        rs.getString(4), (Long) rs.getObject(5), BouncerState.REPLAYED))
                .optional();
    }

    /**
     * Claims the seat in one transaction that commits whole or not at all. A connection lost during its
     * COMMIT leaves the outcome unknown: {@link BookingOutcomeUnknown}, never "nothing was booked".
     *
     * @throws SeatAlreadyTaken if the seat has a buyer (the conditional write matched 0 rows)
     * @throws SeatNotFound     if the event or seat does not exist
     */
    public BookingConfirmation claim(SeatId seat, BookingRequest request, String idempotencyKey, FencingToken token,
                                     BouncerState bouncer) {
        AtomicBoolean written = new AtomicBoolean();
        try {
            return transactions.execute(tx -> {
                BookingConfirmation done = write(seat, request, idempotencyKey, token, bouncer);
                written.set(true); // from here on only the COMMIT is left
                return done;
            });
        } catch (DataAccessException | TransactionException e) {
            if (written.get()) {
                throw new BookingOutcomeUnknown(seat, idempotencyKey, e);
            }
            throw e;
        }
    }

    private BookingConfirmation write(SeatId seat, BookingRequest request, String idempotencyKey, FencingToken token,
                                      BouncerState bouncer) {
        Long fence = token == null ? null : token.value();
        int rows = jdbc.sql(CLAIM)
                .param("email", request.buyer()).param("name", request.name()).param("token", fence)
                .param("event", seat.event()).param("seat", seat.seat())
                .update();
        if (rows == 0) {
            throw isFree(seat).isPresent() ? new SeatAlreadyTaken(seat) : new SeatNotFound("seat " + seat);
        }
        UUID bookingId = UUID.randomUUID();
        jdbc.sql(INSERT_BOOKING)
                .param("id", bookingId).param("event", seat.event()).param("seat", seat.seat())
                .param("email", request.buyer()).param("name", request.name()).param("token", fence)
                .param("key", idempotencyKey)
                .update();
        jdbc.sql("""
                        INSERT INTO email_outbox (idempotency_key, booking_id, recipient, subject, body)
                        VALUES (:key, :booking, :to, :subject, :body)""")
                .param("key", "booking-confirmed:" + bookingId).param("booking", bookingId)
                .param("to", request.buyer())
                .param("subject", "Seat " + seat.seat() + " is yours")
                .param("body", "Hello " + request.name() + ",\n\nseat " + seat.seat() + " for " + seat.event()
                        + " is booked for you. Booking " + bookingId + ".\n")
                .update();
        return new BookingConfirmation(bookingId, seat.event(), seat.seat(), request.buyer(), fence, bouncer);
    }
}
