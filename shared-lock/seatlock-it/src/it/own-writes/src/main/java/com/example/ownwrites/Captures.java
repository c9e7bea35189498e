package com.example.ownwrites;

import io.seatlock.lock.Checkpoint;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.slots.JobSlots;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** A scheduled capture per slot: the lock for the crowd, the (job, slot) record for the money. */
@Service
public class Captures {

    public static final String BEFORE_WRITE = "capture-write";

    private final DistributedLock lock;
    private final JobSlots slots;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    Captures(DistributedLock lock, JobSlots slots, JdbcTemplate jdbc, TransactionTemplate transactions) {
        this.lock = lock;
        this.slots = slots;
        this.jdbc = jdbc;
        this.transactions = transactions;
    }

    /** Runs the slot's capture if the lock is free (a lease with no renewal, like ShedLock's); true if it captured. */
    public boolean run(Instant slot, String runner, Duration ttl, boolean guarded) {
        Optional<LockLease> lease = lock.tryAcquire("capture", ttl, OverlapImpact.BROKEN_PROMISE);
        if (lease.isEmpty()) {
            return false;
        }
        try (LockLease held = lease.get()) {
            Checkpoint.reach(BEFORE_WRITE);
            return Boolean.TRUE.equals(transactions.execute(tx -> {
                if (guarded && !slots.claim("capture", slot)) {
                    return false;
                }
                jdbc.update("INSERT INTO captures (slot, runner) VALUES (?, ?)", Timestamp.from(slot), runner);
                return true;
            }));
        }
    }
}
