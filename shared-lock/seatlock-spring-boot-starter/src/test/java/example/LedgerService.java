package example;

import io.seatlock.lock.Checkpoint;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.time.Duration;
import java.util.Optional;

/** A ledger entry per account, written by one replica at a time and only while its lease is current. */
@Service
public class LedgerService {

    private final DistributedLock lock;
    private final Fence fence;
    private final JdbcTemplate jdbc;

    public LedgerService(DistributedLock lock, Fence fence, JdbcTemplate jdbc) {
        this.lock = lock;
        this.fence = fence;
        this.jdbc = jdbc;
    }

// tag::lease-fenced-write[]
    @Transactional
    public boolean record(String account, long cents) {
        Optional<LockLease> held = lock.tryAcquire("ledger:" + account, Duration.ofSeconds(10),
                OverlapImpact.BROKEN_PROMISE);
        if (held.isEmpty()) {
            return false;                                  // busy: another replica writes this account now
        }
        try (LockLease lease = held.get()) {
            Checkpoint.reach("ledger-write");              // where a test holds this thread, as a long pause would
            // the referee, in this transaction: refused (StaleFencingTokenException, a rollback) unless the lease is
            // still current; on the PostgreSQL store the next grant also waits until this transaction ends
            jdbc.execute((ConnectionCallback<Void>) c -> {
                fence.admit(c, lease.name(), lease.fencingToken());
                return null;
            });
            jdbc.update("INSERT INTO example_ledger (account, cents, token) VALUES (?, ?, ?)", account, cents,
                    lease.fencingToken().value());
            return true;
        }
    }
// end::lease-fenced-write[]
}
