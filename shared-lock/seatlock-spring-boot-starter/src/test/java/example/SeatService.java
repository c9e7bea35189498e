package example;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

import java.time.Duration;
import java.util.Optional;

// tag::seat-service[]
@Service
public record SeatService(DistributedLock lock, JdbcTemplate jdbc) {

    public enum Outcome { BOOKED, JUST_TAKEN, BUSY }

    public Outcome book(String seat, String buyer) {
        // the bouncer: one buyer per seat at a time; a busy lock is an answer, not an error
        Optional<LockLease> held = lock.tryAcquire("seat:" + seat, Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE);
        if (held.isEmpty()) {
            return Outcome.BUSY;
        }
        try (LockLease lease = held.get()) {
            // the referee: the database decides, even for a holder that paused past its lease
            int rows = jdbc.update("UPDATE example_seats SET buyer = ? WHERE id = ? AND buyer IS NULL", buyer, seat);
            return rows == 1 ? Outcome.BOOKED : Outcome.JUST_TAKEN;
        }
    }
}
// end::seat-service[]
