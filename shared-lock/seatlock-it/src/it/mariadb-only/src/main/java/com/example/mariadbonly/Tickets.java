package com.example.mariadbonly;

import io.seatlock.lock.Checkpoint;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.StaleFencingTokenException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.Optional;

/** Ticket claims: the lock keeps the crowd off a seat; guarded, the lease fence decides in the write's transaction. */
@Service
public class Tickets {

    public static final String BEFORE_WRITE = "ticket-write";

    private final DistributedLock lock;
    private final Fence fence;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;

    Tickets(DistributedLock lock, Fence fence, JdbcTemplate jdbc, TransactionTemplate transaction) {
        this.lock = lock;
        this.fence = fence;
        this.jdbc = jdbc;
        this.transaction = transaction;
    }

    /** True if {@code holder} was told the seat is theirs; false if it was busy or the fence refused the write. */
    public boolean claim(String seat, String holder, Duration ttl, boolean guarded) {
        Optional<LockLease> lease = lock.tryAcquire("ticket:" + seat, ttl, OverlapImpact.BROKEN_PROMISE);
        if (lease.isEmpty()) {
            return false;
        }
        try (LockLease held = lease.get()) {
            Checkpoint.reach(BEFORE_WRITE);
            if (!guarded) {
                return jdbc.update("UPDATE tickets SET holder = ? WHERE seat = ?", holder, seat) == 1;
            }
            return Boolean.TRUE.equals(transaction.execute(status -> {
                try {
                    jdbc.execute((ConnectionCallback<Void>) c -> {
                        fence.admit(c, held.name(), held.fencingToken());
                        return null;
                    });
                } catch (StaleFencingTokenException refused) {
                    status.setRollbackOnly();
                    return false;
                }
                return jdbc.update("UPDATE tickets SET holder = ? WHERE seat = ?", holder, seat) == 1;
            }));
        }
    }
}
