package example;

import io.seatlock.lock.slots.JobSlots;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import java.sql.Timestamp;
import java.time.Instant;

// tag::report-job[]
@Component
public class ReportJob {

    private final JobSlots slots;
    private final JdbcTemplate jdbc;

    public ReportJob(JobSlots slots, JdbcTemplate jdbc) {
        this.slots = slots;
        this.jdbc = jdbc;
    }

    @Scheduled(cron = "${example.tick-cron:-}")
    @SchedulerLock(name = "tick", lockAtMostFor = "PT5S")   // ShedLock keeps the crowd away
    @Transactional
    public void tick() {
        Instant slot = slots.currentSlot();
        if (slots.claim("tick", slot)) {                      // the (job, slot) row decides: once per slot
            jdbc.update("INSERT INTO example_ticks (slot, runner) VALUES (?, ?)", Timestamp.from(slot), slots.runner());
        }
    }
}
// end::report-job[]
