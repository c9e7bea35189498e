package io.seatlock.lock;

/** Work done while holding a lock. It gets the lease to pass its fencing token on. */
@FunctionalInterface
public interface LockedTask<T> {
    T run(LockLease lease) throws Exception;
}
