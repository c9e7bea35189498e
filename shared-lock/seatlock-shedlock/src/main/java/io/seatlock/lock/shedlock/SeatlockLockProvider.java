package io.seatlock.lock.shedlock;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LeaseTooShortException;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * ShedLock on the fenced Redis lock, safe on every path: unlock is a compare-and-delete (or, while
 * {@code lockAtLeastFor} still runs, a compare-and-{@code PEXPIRE} to its end) and extend is owner
 * checked, so a stale holder never touches the next holder's lock. ShedLock jobs are
 * {@link OverlapImpact#WASTED_WORK} by nature; jobs that move money need their own idempotent write.
 */
public final class SeatlockLockProvider implements ExtensibleLockProvider {

    private static final Duration SHORTEST_GRANT = Duration.ofSeconds(1);
    /** The shortest ttl the lock accepts with its default 1 ms safety margin. */
    private static final Duration SHORTEST_LEASE = Duration.ofMillis(2);

    private final DistributedLock lock;

    /**
     * A provider on a lock.
     * @param lock the lock every replica shares
     */
    public SeatlockLockProvider(DistributedLock lock) {
        this.lock = Objects.requireNonNull(lock, "lock");
    }

    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        // Precise now, rounded up to whole milliseconds: ShedLock's clock is truncated to the millisecond, and
        // rounding down would shave up to 1 ms off a short lockAtMostFor. A lockAtMostUntil that a busy
        // scheduler has already passed still gets the shortest lease Redis can keep, as ShedLock's JDBC
        // providers grant a lock whose lock_until is already in the past.
        Duration left = Duration.between(Instant.now(), configuration.getLockAtMostUntil());
        Duration atMost = Duration.ofMillis(Math.max(SHORTEST_LEASE.toMillis(), left.plusNanos(999_999).toMillis()));
        try {
            return grant(configuration.getName(), atMost).map(lease -> new LeaseLock(lease, configuration));
        } catch (LeaseTooShortException e) {
            return Optional.empty(); // only with a safety margin configured above lockAtMostFor: "not locked"
        }
    }

    /**
     * A lease of a few milliseconds has so little local validity that one scheduler stall makes its grant
     * arrive "too late" and be refused. ShedLock keeps no local deadline, so a short lockAtMostFor is taken
     * as a {@link #SHORTEST_GRANT} lease, then shortened to lockAtMostFor by an owner-checked PEXPIRE.
     */
    private Optional<LockLease> grant(String name, Duration atMost) {
        if (atMost.compareTo(SHORTEST_GRANT) >= 0) {
            return lock.tryAcquire(name, atMost, OverlapImpact.WASTED_WORK);
        }
        Optional<LockLease> granted = lock.tryAcquire(name, SHORTEST_GRANT, OverlapImpact.WASTED_WORK);
        if (granted.isEmpty()) {
            return granted;
        }
        boolean shortened = false;
        try {
            shortened = granted.get().renew(atMost);
        } finally {
            if (!shortened) {
                granted.get().close(); // never leave the longer grant standing
            }
        }
        return shortened ? granted : Optional.empty();
    }

    /**
     * Single use, like ShedLock's own locks: after an unlock, or an extend that answered, this handle is spent.
     * An extend that threw (Redis unavailable) spends nothing, so ShedLock's executor can still unlock it, as
     * ShedLock's {@code AbstractSimpleLock} allows.
     */
    private static final class LeaseLock implements SimpleLock {

        private final LockLease lease;
        private final LockConfiguration configuration;
        private final AtomicBoolean spent = new AtomicBoolean();

        LeaseLock(LockLease lease, LockConfiguration configuration) {
            this.lease = lease;
            this.configuration = configuration;
        }

        @Override
        public void unlock() {
            spend();
            lease.releaseAfter(Duration.between(ClockProvider.now(), configuration.getLockAtLeastUntil()));
        }

        @Override
        public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
            requireUnspent();
            boolean extended = lease.renew(lockAtMostFor); // throws before anything is spent
            spend();
            if (!extended) {
                return Optional.empty();
            }
            Instant now = ClockProvider.now();
            return Optional.of(new LeaseLock(lease,
                    new LockConfiguration(now, configuration.getName(), lockAtMostFor, lockAtLeastFor)));
        }

        private void requireUnspent() {
            if (spent.get()) {
                throw alreadySpent();
            }
        }

        private void spend() {
            if (!spent.compareAndSet(false, true)) {
                throw alreadySpent();
            }
        }

        private IllegalStateException alreadySpent() {
            return new IllegalStateException("lock '" + configuration.getName() + "' has already been unlocked or extended");
        }
    }
}
