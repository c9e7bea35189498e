package io.seatlock.jobs.leader;

import io.seatlock.lock.FencingToken;

/** Told when this replica gains or loses leadership. Callbacks run on the election's threads and must not block. */
public interface Candidate {

    /** This replica leads from now on; tag every leader-only write with {@code epoch}. */
    void onGranted(FencingToken epoch);

    /** This replica no longer leads (yielded, renewal found the lock lost, or its deadline neared). */
    void onRevoked(FencingToken epoch);
}
