package io.seatlock.jobs.jobs;

import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.OverlapImpact;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The replicas' shared schedule; ShedLock keeps the crowd to one runner per slot. */
@Component
class ScheduledJobs {

    private static final Logger log = LoggerFactory.getLogger(ScheduledJobs.class);

    private final JobRuns runs;
    private final PaymentCapture payments;
    private final DistributedLock lock;
    private final MeterRegistry meters;

    ScheduledJobs(JobRuns runs, PaymentCapture payments, DistributedLock lock, MeterRegistry meters) {
        this.runs = runs;
        this.payments = payments;
        this.lock = lock;
        this.meters = meters;
    }

    /** WASTED_WORK if doubled: a report mailed twice is noise, so the lock (plus the slot record) is enough. */
    @Scheduled(cron = "${jobs.report.cron:0 */5 * * * *}")
    @SchedulerLock(name = "sales-report", lockAtMostFor = "PT4M", lockAtLeastFor = "PT30S")
    void salesReport() {
        LockAssert.assertLocked();
        Instant slot = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        if (runs.claim("sales-report", slot)) {
            meters.counter("jobs.run", "job", "sales-report").increment();
            log.info("sales report for slot {} built", slot);
        }
    }

    /** BROKEN_PROMISE if doubled: money. The lock keeps the crowd out; job_runs and the conditional capture decide. */
    @Scheduled(cron = "${jobs.payments.cron:*/30 * * * * *}")
    @SchedulerLock(name = "payment-capture", lockAtMostFor = "PT25S", lockAtLeastFor = "PT5S")
    void capturePayments() {
        LockAssert.assertLocked();
        int captured = payments.captureDue(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        meters.counter("jobs.payments.captured").increment(captured);
    }

    /** WASTED_WORK only: a catalogue cache rebuilt twice costs CPU, nothing else. Lock, no database guard. */
    @Scheduled(fixedDelayString = "PT10M", initialDelayString = "PT1M")
    void rebuildCatalogCache() {
        lock.executeLocked("cache:catalog", Duration.ofMinutes(2), OverlapImpact.WASTED_WORK, lease -> {
            log.info("catalogue cache rebuilt under lock token {}", lease.fencingToken());
            return true;
        });
    }
}
