package io.seatlock.lock;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link DistributedLock#tryAcquireUnlessDecided} found: the lease, a busy lock (with how long its
 * holder's lease still runs, when known), or a lock whose work was already decided.
 */
public final class AcquireAttempt {

    private static final AcquireAttempt DECIDED = new AcquireAttempt(Optional.empty(), null, true);
    private static final AcquireAttempt BUSY = new AcquireAttempt(Optional.empty(), null, false);

    private final Optional<LockLease> lease;
    private final Duration busyFor;
    private final boolean decided;

    private AcquireAttempt(Optional<LockLease> lease, Duration busyFor, boolean decided) {
        this.lease = lease;
        this.busyFor = busyFor;
        this.decided = decided;
    }

    public static AcquireAttempt acquired(LockLease lease) {
        return new AcquireAttempt(Optional.of(Objects.requireNonNull(lease, "lease")), null, false);
    }

    /** Someone else holds the lock; {@code busyFor} is its remaining time to live, or null if unknown. */
    public static AcquireAttempt busy(Duration busyFor) {
        return busyFor == null ? BUSY : new AcquireAttempt(Optional.empty(), busyFor, false);
    }

    public static AcquireAttempt alreadyDecided() {
        return DECIDED;
    }

    /** The lease, if this attempt took the lock. */
    public Optional<LockLease> lease() {
        return lease;
    }

    /** True if a holder released the lock as decided ({@link LockLease#releaseDecided}): the work is done. */
    public boolean isDecided() {
        return decided;
    }

    /** When busy: how long the holder's lease still runs in Redis, if the lock could say. */
    public Optional<Duration> busyFor() {
        return Optional.ofNullable(busyFor);
    }

    @Override
    public String toString() {
        return decided ? "AcquireAttempt[decided]" : lease.map(l -> "AcquireAttempt[acquired " + l + "]")
                .orElse("AcquireAttempt[busy" + (busyFor == null ? "" : " for " + busyFor) + "]");
    }
}
