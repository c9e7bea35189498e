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

    private final DistributedLock lock;

    public SeatlockLockProvider(DistributedLock lock) {
        this.lock = Objects.requireNonNull(lock, "lock");
    }

    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        Duration atMost = Duration.between(ClockProvider.now(), configuration.getLockAtMostUntil());
        if (atMost.toMillis() < 1) {
            return Optional.empty();
        }
        try {
            return lock.tryAcquire(configuration.getName(), atMost, OverlapImpact.WASTED_WORK)
                    .map(lease -> new LeaseLock(lease, configuration));
        } catch (LeaseTooShortException e) {
            return Optional.empty(); // lockAtMostUntil has (all but) passed: ShedLock expects "not locked", not an error
        }
    }

    /** Single use, like ShedLock's own locks: after unlock or extend this handle is spent. */
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
            spend();
            if (!lease.renew(lockAtMostFor)) {
                return Optional.empty();
            }
            Instant now = ClockProvider.now();
            return Optional.of(new LeaseLock(lease,
                    new LockConfiguration(now, configuration.getName(), lockAtMostFor, lockAtLeastFor)));
        }

        private void spend() {
            if (!spent.compareAndSet(false, true)) {
                throw new IllegalStateException("lock '" + configuration.getName()
                        + "' has already been unlocked or extended");
            }
        }
    }
}
