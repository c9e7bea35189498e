package io.seatlock.lock.leader;

import org.jspecify.annotations.Nullable;

import io.seatlock.lock.FencingToken;

import java.sql.SQLException;

/**
 * A leader-only write, run in the caller's transaction after its epoch was admitted by the fence.
 *
 * @param <T> what the write returns
 */
@FunctionalInterface
public interface LeaderWork<T> {
    /**
     * Writes.
     *
     * @param epoch the admitted epoch, to store with the write
     * @return anything, possibly null
     * @throws SQLException if the write failed
     */
    @Nullable T run(FencingToken epoch) throws SQLException;
}
