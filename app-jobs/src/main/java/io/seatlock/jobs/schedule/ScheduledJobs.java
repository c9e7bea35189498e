package io.seatlock.jobs.schedule;

import io.seatlock.jobs.JobsProperties;
import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.TaskResult;
import io.seatlock.lock.slots.JobSlots;
import io.seatlock.jobs.payments.PaymentCapture;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.Instant;

/** The replicas' shared schedule; ShedLock keeps the crowd to one runner per slot. */
@Component
class ScheduledJobs {

    private static final Logger log = LoggerFactory.getLogger(ScheduledJobs.class);

    private final JobSlots slots;
    private final PaymentCapture payments;
    private final DistributedLock lock;
    private final MeterRegistry meters;

    ScheduledJobs(JobSlots slots, PaymentCapture payments, DistributedLock lock, MeterRegistry meters) {
        this.slots = slots;
        this.payments = payments;
        this.lock = lock;
        this.meters = meters;
    }

    /** WASTED_WORK if doubled: a report mailed twice is noise, so the lock (plus the slot record) is enough. */
    @Scheduled(cron = "#{@'" + JobsProperties.BEAN + "'.report().cron()}")
    @SchedulerLock(name = "sales-report", lockAtMostFor = "PT4M", lockAtLeastFor = "PT30S")
    void salesReport() {
        LockAssert.assertLocked();
        Instant slot = slots.currentSlot(); // the cron fire time, the same on a late or skewed replica
        if (slots.claim("sales-report", slot)) {
            meters.counter("jobs.run", "job", "sales-report").increment();
            log.info("sales report for slot {} built", slot);
        }
    }

    /** BROKEN_PROMISE if doubled: money. The lock keeps the crowd out; job_runs and the conditional capture decide. */
    @Scheduled(cron = "#{@'" + JobsProperties.BEAN + "'.payments().cron()}")
    @SchedulerLock(name = "payment-capture", lockAtMostFor = "PT25S", lockAtLeastFor = "PT5S")
    void capturePayments() {
        LockAssert.assertLocked();
        Instant slot = slots.currentSlot();
        int captured = payments.captureDue(slot);
        meters.counter("jobs.payments.captured").increment(captured);
        log.info("payment capture for slot {}: {} captured here", slot, captured);
    }

    /** WASTED_WORK only: a catalogue cache rebuilt twice costs CPU, nothing else. Lock, no database guard. */
    @Scheduled(fixedDelayString = "PT10M", initialDelayString = "PT1M")
    void rebuildCatalogCache() {
        TaskResult<Boolean> rebuilt = lock.executeLocked("cache:catalog", Duration.ofMinutes(2),
                OverlapImpact.WASTED_WORK, lease -> {
                    log.info("catalogue cache rebuilt under lock token {}", lease.fencingToken());
                    return true;
                });
        if (!rebuilt.wasExecuted()) {
            log.debug("another replica rebuilds the catalogue cache");
        }
    }
}
