package io.seatlock.seats.booking;

import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.Checkpoint;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.seats.SeatsProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;

import java.time.Duration;
import java.util.Optional;

/**
 * The booking story: the bouncer (a Redis lock per seat) turns the crowd away cheaply, the referee
 * (a conditional write in PostgreSQL) decides. A holder that pauses past its lease and writes late
 * matches 0 rows; if Redis is down, the referee decides alone.
 */
@Service
public class BookingService {

    private static final Logger log = LoggerFactory.getLogger(BookingService.class);
    private static final Duration SOLD_MARKER_KEPT = Duration.ofDays(30);
    /**
     * Where a booking stands after the referee saw the seat free and before it writes: the moment a GC pause
     * or a frozen VM hurts most. A test can hold a booking here ({@code seatlock-test}'s {@code Pauses}).
     */
    public static final String BEFORE_SEAT_WRITE = "seat-write";

    private final DistributedLock bouncer;
    private final SeatReferee referee;
    private final SeatsProperties properties;
    private final MeterRegistry meters;
    private final ApplicationEventPublisher events;

    BookingService(DistributedLock bouncer, SeatReferee referee, SeatsProperties properties,
                   MeterRegistry meters, ApplicationEventPublisher events) {
        this.bouncer = bouncer;
        this.referee = referee;
        this.properties = properties;
        this.meters = meters;
        this.events = events;
    }

    /**
     * Books {@code seat}. With an {@code idempotencyKey}, a retry of a booking that was made returns that
     * booking again (its original confirmation), whatever happened to the first answer.
     */
    public BookingConfirmation book(SeatId seat, BookingRequest request, String idempotencyKey) {
        if (idempotencyKey != null) {
            Optional<BookingConfirmation> earlier = referee.findByIdempotencyKey(idempotencyKey);
            if (earlier.isPresent()) {
                return replay(seat, request, earlier.get());
            }
        }
        try {
            return bookOnce(seat, request, idempotencyKey);
        } catch (SeatAlreadyTaken e) {
            // two retries of one booking racing each other: the loser finds the winner's booking by its key
            if (idempotencyKey != null) {
                Optional<BookingConfirmation> made = referee.findByIdempotencyKey(idempotencyKey);
                if (made.isPresent()) {
                    return replay(seat, request, made.get());
                }
            }
            throw e;
        }
    }

    /** The booking made with {@code idempotencyKey}, if one was. */
    public Optional<BookingConfirmation> find(String idempotencyKey) {
        return referee.findByIdempotencyKey(idempotencyKey);
    }

    /** The booking {@code earlier} again, if this request is its retry: the same seat for the same buyer. */
    private BookingConfirmation replay(SeatId seat, BookingRequest request, BookingConfirmation earlier) {
        if (!earlier.event().equals(seat.event()) || !earlier.seat().equals(seat.seat())
                || !earlier.buyer().equals(request.buyer())) {
            throw new IdempotencyKeyReused(seat);
        }
        count("replayed");
        return earlier;
    }

    private BookingConfirmation bookOnce(SeatId seat, BookingRequest request, String idempotencyKey) {
        if (!properties.bouncerEnabled()) {
            return decide(seat, request, idempotencyKey, null, BouncerState.OFF);
        }
        // One round trip answers all three: sold (the decided marker a winner left), busy, or ours.
        Optional<LockLease> lease;
        BouncerState bouncerState = BouncerState.UP;
        try {
            AcquireAttempt attempt = bouncer.tryAcquireUnlessDecided(seat.lockName(), properties.holdTtl(),
                    OverlapImpact.BROKEN_PROMISE);
            if (attempt.isDecided()) {
                count("seat-taken");
                throw new SeatAlreadyTaken(seat);
            }
            lease = attempt.lease();
            if (lease.isEmpty()) {
                count("seat-busy");
                throw new SeatBusy(seat, attempt.busyFor().orElse(Duration.ofSeconds(1)));
            }
        } catch (LockUnavailableException e) {
            lease = Optional.empty();
            bouncerState = BouncerState.DOWN;
            meters.counter("seats.bouncer.down").increment();
            log.warn("bouncer down, PostgreSQL decides {} alone: {}", seat, e.getMessage());
        }
        boolean booked = false;
        try {
            FencingToken token = lease.map(LockLease::fencingToken).orElse(null);
            BookingConfirmation confirmation = decide(seat, request, idempotencyKey, token, bouncerState);
            booked = true;
            return confirmation;
        } finally {
            if (lease.isPresent()) {
                release(seat, lease.get(), booked);
            }
        }
    }

    /**
     * A committed booking leaves the seat's decided marker as the lock is released (one round trip), so the
     * crowd that arrives after a sale is told "just taken" by Redis instead of each asking PostgreSQL. The
     * marker can only be missing (Redis lost it), never wrong: bookings are never undone (cancellations,
     * if added, must delete it after their commit).
     */
    private void release(SeatId seat, LockLease lease, boolean booked) {
        try {
            if (booked) {
                lease.releaseDecided(SOLD_MARKER_KEPT);
            } else {
                lease.release();
            }
        } catch (RuntimeException e) {
            // The booking's outcome is already decided; the lock expires on its own.
            log.warn("could not release {} in Redis; it expires on its own: {}", seat, e.getMessage());
        }
    }

    /** The referee's part: look, (maybe pause), write conditionally. */
    private BookingConfirmation decide(SeatId seat, BookingRequest request, String idempotencyKey, FencingToken token,
                                       BouncerState bouncerState) {
        Optional<Boolean> free = referee.isFree(seat);
        if (free.isEmpty()) {
            count("not-found");
            throw new SeatNotFound("seat " + seat);
        }
        if (!free.get()) {
            count("seat-taken");
            throw new SeatAlreadyTaken(seat);
        }
        Checkpoint.reach(BEFORE_SEAT_WRITE);
        BookingConfirmation confirmation = claim(seat, request, idempotencyKey, token, bouncerState);
        count("booked");
        events.publishEvent(new SeatBooked(seat));
        return confirmation;
    }

    private BookingConfirmation claim(SeatId seat, BookingRequest request, String idempotencyKey, FencingToken token,
                                      BouncerState bouncerState) {
        try {
            return referee.claim(seat, request, idempotencyKey, token, bouncerState);
        } catch (SeatAlreadyTaken e) {
            // The holder looked, saw the seat free, and still lost: its lease ended before it wrote.
            count("taken-at-write");
            throw e;
        }
    }


    private void count(String outcome) {
        meters.counter("seats.booking", "outcome", outcome).increment();
    }
}
