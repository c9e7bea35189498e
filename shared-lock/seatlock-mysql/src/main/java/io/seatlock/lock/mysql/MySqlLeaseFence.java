package io.seatlock.lock.mysql;

import io.seatlock.lock.Fence;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.jdbc.internal.LeaseRowFence;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;

/**
 * A fence that admits a write only while the writer's lease is current: its grant is the newest of the lock's name
 * and it has not expired by the database's clock. For the {@link MySqlLock} on the same database: a holder paused past
 * its lease is refused even when no newer holder has written yet.
 *
 * <p>{@link #admit} reads the lease row with {@code LOCK IN SHARE MODE} in the caller's transaction (a locking read,
 * so it sees the newest committed row whatever the isolation level, where a plain read in REPEATABLE READ would see
 * the transaction's snapshot). A new grant updates the row, so it waits until that transaction ends and then finds
 * the lease as the write left it: no write of an earlier holder commits after a later grant. InnoDB has no weaker
 * row lock that only grants wait for, so the holder's own renewal and release wait for its guarded transactions too:
 * keep guarded transactions shorter than a second (a grant or renewal waits that long, then counts as busy or
 * failed), and admit first in the transaction.
 */
public final class MySqlLeaseFence implements Fence {

    private final LeaseRowFence fence;

    /**
     * A fence on the lease table of {@code settings}.
     *
     * @param settings the lock's settings (its table)
     * @param listener told of each refused write
     */
    public MySqlLeaseFence(MySqlLockSettings settings, LockListener listener) {
        String table = Objects.requireNonNull(settings, "settings").table();
        this.fence = new LeaseRowFence("SELECT 1 FROM " + table + " WHERE name = ? AND fencing_token = ? "
                + "AND owner_token IS NOT NULL AND expires_at > UTC_TIMESTAMP(6) LOCK IN SHARE MODE",
                "SELECT fencing_token, owner_token IS NOT NULL AND expires_at > UTC_TIMESTAMP(6) FROM " + table
                        + " WHERE name = ? LOCK IN SHARE MODE", Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Admits a write of {@code lease}'s holder in the caller's transaction, or refuses it.
     *
     * @param connection the connection of the transaction that also makes the guarded write, not in auto-commit mode
     * @param lease      the writer's lease
     * @throws StaleFencingTokenException if the lease expired or passed to a newer grant; roll the transaction back
     * @throws IllegalStateException      if {@code connection} is in auto-commit mode; nothing is admitted
     * @throws SQLException               if the storage failed
     */
    public void admit(Connection connection, LockLease lease) throws SQLException {
        admit(connection, lease.name(), lease.fencingToken());
    }

    @Override
    public void admit(Connection connection, String resource, FencingToken token) throws SQLException {
        fence.admit(connection, resource, token);
    }
}
