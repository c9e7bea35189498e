package io.seatlock.lock;

import org.jspecify.annotations.Nullable;

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
    private final @Nullable Duration busyFor;
    private final boolean decided;

    private AcquireAttempt(Optional<LockLease> lease, @Nullable Duration busyFor, boolean decided) {
        this.lease = lease;
        this.busyFor = busyFor;
        this.decided = decided;
    }

    /**
     * The lock was taken.
     *
     * @param lease the new lease
     * @return an attempt holding it
     */
    public static AcquireAttempt acquired(LockLease lease) {
        return new AcquireAttempt(Optional.of(Objects.requireNonNull(lease, "lease")), null, false);
    }

    /**
     * Someone else holds the lock.
     *
     * @param busyFor its remaining time to live, or null if unknown
     * @return a busy attempt
     */
    public static AcquireAttempt busy(@Nullable Duration busyFor) {
        return busyFor == null ? BUSY : new AcquireAttempt(Optional.empty(), busyFor, false);
    }

    /**
     * The lock's work was already decided.
     *
     * @return the decided attempt
     */
    public static AcquireAttempt alreadyDecided() {
        return DECIDED;
    }

    /**
     * The lease, if this attempt took the lock.
     *
     * @return the lease, or empty
     */
    public Optional<LockLease> lease() {
        return lease;
    }

    /**
     * Whether a holder released the lock as decided ({@link LockLease#releaseDecided}): the work is done.
     *
     * @return true if decided
     */
    public boolean isDecided() {
        return decided;
    }

    /**
     * When busy: how long the holder's lease still runs in the store, if the lock could say.
     *
     * @return the holder's time left, or empty
     */
    public Optional<Duration> busyFor() {
        return Optional.ofNullable(busyFor);
    }

    @Override
    public String toString() {
        return decided ? "AcquireAttempt[decided]" : lease.map(l -> "AcquireAttempt[acquired " + l + "]")
                .orElse("AcquireAttempt[busy" + (busyFor == null ? "" : " for " + busyFor) + "]");
    }
}
