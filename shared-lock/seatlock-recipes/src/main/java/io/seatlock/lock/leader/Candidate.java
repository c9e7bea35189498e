package io.seatlock.lock.leader;

import io.seatlock.lock.FencingToken;

/**
 * Told when this replica gains or loses leadership. Callbacks run one at a time, in order, on the
 * election's own callback thread, never while the election or a lease holds a lock; a slow callback
 * delays only later callbacks of the same election. Whatever a callback throws is logged and changes nothing
 * ({@link io.seatlock.lock.internal.Callbacks}).
 */
public interface Candidate {

    /**
     * This replica leads from now on; tag every leader-only write with {@code epoch}.
     *
     * @param epoch the term's fencing token
     */
    void onGranted(FencingToken epoch);

    /**
     * This replica no longer leads (yielded, renewal found the lock lost, or its deadline neared).
     *
     * @param epoch the ended term's fencing token
     */
    void onRevoked(FencingToken epoch);
}
