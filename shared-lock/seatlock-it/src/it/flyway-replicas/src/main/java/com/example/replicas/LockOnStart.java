package com.example.replicas;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import org.springframework.boot.CommandLineRunner;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.Optional;

/** A lock call right after start (a warm-up job, a start-up report): it finds the lock connected, however cold. */
@Component
public class LockOnStart implements CommandLineRunner {

    private final DistributedLock lock;
    private volatile String outcome = "not run";

    public LockOnStart(DistributedLock lock) {
        this.lock = lock;
    }

    @Override
    public void run(String... args) {
        Optional<LockLease> lease = lock.tryAcquire("start-report", Duration.ofSeconds(30), OverlapImpact.WASTED_WORK);
        if (lease.isEmpty()) {
            outcome = "busy"; // another replica reports: an answer, not a failure
            return;
        }
        try (LockLease held = lease.get()) {
            outcome = "acquired";
        }
    }

    public String outcome() {
        return outcome;
    }
}
