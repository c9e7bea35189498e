package io.seatlock.lock.leader;

import io.seatlock.lock.FencingToken;

import java.sql.SQLException;

/** A leader-only write, run in the caller's transaction after its epoch was admitted by the fence. */
@FunctionalInterface
public interface LeaderWork<T> {
    T run(FencingToken epoch) throws SQLException;
}
