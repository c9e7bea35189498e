package com.example.ownwrites;

import io.seatlock.lock.Checkpoint;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

import java.time.Duration;
import java.util.Optional;

/** Ticket claims: the lock keeps the crowd off a seat; the conditional UPDATE decides. */
@Service
public class Tickets {

    public static final String BEFORE_WRITE = "ticket-write";

    private final DistributedLock lock;
    private final JdbcTemplate jdbc;

    Tickets(DistributedLock lock, JdbcTemplate jdbc) {
        this.lock = lock;
        this.jdbc = jdbc;
    }

    /** True if {@code holder} got the seat; false if the seat was busy or already taken. */
    public boolean claim(String seat, String holder, Duration ttl, boolean guarded) {
        Optional<LockLease> lease = lock.tryAcquire("ticket:" + seat, ttl, OverlapImpact.BROKEN_PROMISE);
        if (lease.isEmpty()) {
            return false;
        }
// tag::checkpoint[]
        try (LockLease held = lease.get()) {
            Checkpoint.reach(BEFORE_WRITE);
            String sql = guarded ? "UPDATE tickets SET holder = ? WHERE seat = ? AND holder IS NULL"
                    : "UPDATE tickets SET holder = ? WHERE seat = ?";
            return jdbc.update(sql, holder, seat) == 1;
        }
// end::checkpoint[]
    }
}
