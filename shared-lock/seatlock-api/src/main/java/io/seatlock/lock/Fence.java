package io.seatlock.lock;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The storage side of fencing: remembers the newest fencing token accepted per resource and refuses an
 * older one, inside the caller's transaction. The lock keeps the crowd away; a fence is the referee for a
 * holder whose lease ran out while it was paused.
 */
public interface Fence {

    /**
     * Admits {@code token} for {@code resource} in the transaction of {@code connection}, or refuses it.
     *
     * @param connection the connection of the transaction that also makes the guarded write (not in auto-commit mode:
     *                   the admission must hold until that write commits, and roll back with it)
     * @param resource   what the token guards, e.g. the lock name
     * @param token      the writer's fencing token
     * @throws StaleFencingTokenException if a newer token was already admitted; roll the transaction back
     * @throws IllegalStateException      if {@code connection} is in auto-commit mode; nothing is admitted
     * @throws SQLException               if the storage failed
     */
    void admit(Connection connection, String resource, FencingToken token) throws SQLException;
}
