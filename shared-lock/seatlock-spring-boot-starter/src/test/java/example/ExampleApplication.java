package example;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.Optional;

/**
 * An application as an outside user writes it: it depends on seatlock's public API and Spring Boot's
 * own configuration only (no code from this project's apps or test harness).
 */
@SpringBootApplication
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT30S")
public class ExampleApplication {

    /** Seat-style: the lock is the bouncer, the conditional UPDATE the referee. */
    @Component
    public static class SeatDesk {
        private final DistributedLock lock;
        private final JdbcTemplate jdbc;

        SeatDesk(DistributedLock lock, JdbcTemplate jdbc) {
            this.lock = lock;
            this.jdbc = jdbc;
        }

        /** The bouncer's part: empty if someone else is booking that seat right now. */
        public Optional<LockLease> hold(String seat, Duration ttl) {
            return lock.tryAcquire("seat:" + seat, ttl, OverlapImpact.BROKEN_PROMISE);
        }

        /** The referee's part: true if this buyer got the seat, false if it was just taken. */
        public boolean write(String seat, String buyer) {
            return jdbc.update("UPDATE example_seats SET buyer = ? WHERE id = ? AND buyer IS NULL", buyer, seat) == 1;
        }
    }
}
