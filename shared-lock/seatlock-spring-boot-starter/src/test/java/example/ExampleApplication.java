package example;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.slots.JobSlots;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import java.time.Duration;
import java.time.Instant;
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

    /** Once per slot: ShedLock keeps the crowd away, the (job, slot) record decides. */
    @Component
    public static class Ticker {
        private final JobSlots slots;
        private final JdbcTemplate jdbc;

        Ticker(JobSlots slots, JdbcTemplate jdbc) {
            this.slots = slots;
            this.jdbc = jdbc;
        }

        @Scheduled(cron = "${example.tick-cron:-}")
        @SchedulerLock(name = "tick", lockAtMostFor = "PT5S")
        @Transactional
        public void tick() {
            Instant slot = slots.currentSlot();
            if (slots.claim("tick", slot)) {
                jdbc.update("INSERT INTO example_ticks (slot, runner) VALUES (?, ?)", java.sql.Timestamp.from(slot),
                        slots.runner());
            }
        }
    }
}
