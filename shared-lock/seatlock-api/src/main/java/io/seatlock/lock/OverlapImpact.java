package io.seatlock.lock;

/**
 * What breaks if two holders of one lock overlap. Every call site declares it, because a lock with a
 * TTL can always be held twice (a paused holder outlives its lease).
 */
public enum OverlapImpact {

    /**
     * Overlap only wastes work: a report built twice, a cache rebuilt twice. The lock alone is enough.
     */
    WASTED_WORK,

    /**
     * Overlap breaks a promise: a seat sold twice, a payment captured twice. The lock only keeps the
     * crowd away; a conditional write, a unique key or a {@link FencingToken} checked by the storage
     * decides. Pass {@link LockLease#fencingToken()} to that write.
     */
    BROKEN_PROMISE
}
