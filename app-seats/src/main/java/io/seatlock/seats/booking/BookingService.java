package io.seatlock.seats.booking;

import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.seats.SeatsProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
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

    private final DistributedLock bouncer;
    private final SeatReferee referee;
    private final SeatsProperties properties;
    private final SeatWriteHook hook;
    private final MeterRegistry meters;
    private final SoldSeats sold;

    BookingService(DistributedLock bouncer, SeatReferee referee, SeatsProperties properties,
                   ObjectProvider<SeatWriteHook> hook, MeterRegistry meters, SoldSeats sold) {
        this.bouncer = bouncer;
        this.referee = referee;
        this.properties = properties;
        this.hook = hook.getIfAvailable(() -> (seat, request) -> { });
        this.meters = meters;
        this.sold = sold;
    }

    /**
     * Books {@code seat}. With an {@code idempotencyKey}, a retry of a booking that was made returns that
     * booking again (its original confirmation), whatever happened to the first answer.
     */
    public BookingConfirmation book(SeatId seat, BookingRequest request, String idempotencyKey) {
        if (idempotencyKey != null) {
            Optional<BookingConfirmation> earlier = referee.findByIdempotencyKey(idempotencyKey);
            if (earlier.isPresent()) {
                return replay(seat, earlier.get());
            }
        }
        try {
            return bookOnce(seat, request, idempotencyKey);
        } catch (SeatAlreadyTaken e) {
            // two retries of one booking racing each other: the loser finds the winner's booking by its key
            if (idempotencyKey != null) {
                Optional<BookingConfirmation> made = referee.findByIdempotencyKey(idempotencyKey);
                if (made.isPresent()) {
                    return replay(seat, made.get());
                }
            }
            throw e;
        }
    }

    /** The booking made with {@code idempotencyKey}, if one was. */
    public Optional<BookingConfirmation> find(String idempotencyKey) {
        return referee.findByIdempotencyKey(idempotencyKey);
    }

    private BookingConfirmation replay(SeatId seat, BookingConfirmation earlier) {
        if (!earlier.event().equals(seat.event()) || !earlier.seat().equals(seat.seat())) {
            throw new IdempotencyKeyReused(seat);
        }
        count("replayed");
        return earlier;
    }

    private BookingConfirmation bookOnce(SeatId seat, BookingRequest request, String idempotencyKey) {
        if (!properties.bouncerEnabled()) {
            return decide(seat, request, idempotencyKey, null, "off");
        }
        if (sold.knownSold(seat)) {
            count("seat-taken");
            throw new SeatAlreadyTaken(seat);
        }
        Optional<LockLease> lease;
        String bouncerState = "up";
        try {
            lease = bouncer.tryAcquire(seat.lockName(), properties.holdTtl(), OverlapImpact.BROKEN_PROMISE);
            if (lease.isEmpty()) {
                count("seat-busy");
                throw new SeatBusy(seat, retryAfter(seat));
            }
        } catch (LockUnavailableException e) {
            lease = Optional.empty();
            bouncerState = "down";
            meters.counter("seats.bouncer.down").increment();
            log.warn("bouncer down, PostgreSQL decides {} alone: {}", seat, e.getMessage());
        }
        try {
            FencingToken token = lease.map(LockLease::fencingToken).orElse(null);
            BookingConfirmation booked = decide(seat, request, idempotencyKey, token, bouncerState);
            sold.markSold(seat); // committed; marked before the lock is released, so no buyer slips between
            return booked;
        } finally {
            lease.ifPresent(LockLease::close);
        }
    }

    /** The referee's part: look, (maybe pause), write conditionally. */
    private BookingConfirmation decide(SeatId seat, BookingRequest request, String idempotencyKey, FencingToken token,
                                       String bouncerState) {
        Optional<Boolean> free = referee.isFree(seat);
        if (free.isEmpty()) {
            count("not-found");
            throw new SeatNotFound("seat " + seat);
        }
        if (!free.get()) {
            count("seat-taken");
            throw new SeatAlreadyTaken(seat);
        }
        hook.beforeWrite(seat, request);
        BookingConfirmation confirmation = claim(seat, request, idempotencyKey, token, bouncerState);
        count("booked");
        return confirmation;
    }

    private BookingConfirmation claim(SeatId seat, BookingRequest request, String idempotencyKey, FencingToken token,
                                      String bouncerState) {
        try {
            return referee.claim(seat, request, idempotencyKey, token, bouncerState);
        } catch (SeatAlreadyTaken e) {
            // The holder looked, saw the seat free, and still lost: its lease ended before it wrote.
            count("taken-at-write");
            throw e;
        }
    }

    private Duration retryAfter(SeatId seat) {
        try {
            return bouncer.remainingTtl(seat.lockName()).orElse(Duration.ofSeconds(1));
        } catch (LockUnavailableException e) {
            return Duration.ofSeconds(1);
        }
    }

    private void count(String outcome) {
        meters.counter("seats.booking", "outcome", outcome).increment();
    }
}
