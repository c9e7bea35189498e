package io.seatlock.lock;

/**
 * Work done while holding a lock. It gets the lease to pass its fencing token on.
 *
 * @param <T> what the work returns
 */
@FunctionalInterface
public interface LockedTask<T> {
    /**
     * Does the work.
     * @param lease the lease held while it runs; pass its fencing token to guarded writes
     * @return what the caller of {@code executeLocked} gets back, possibly null
     * @throws Exception whatever the work throws; it reaches the caller
     */
    T run(LockLease lease) throws Exception;
}
