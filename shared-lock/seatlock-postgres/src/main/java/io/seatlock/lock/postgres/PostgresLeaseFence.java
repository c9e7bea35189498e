package io.seatlock.lock.postgres;

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
 * and it has not expired by the database's clock. For the {@link PostgresLock} on the same database, and the
 * strongest guard seatlock has: a holder paused past its lease is refused even when no newer holder has written yet
 * (a token-comparing fence, such as {@code PostgresFence}, admits it until then).
 *
 * <p>{@link #admit} locks the lease row {@code FOR KEY SHARE} in the caller's transaction. A new grant changes the
 * row's key (its fencing token), so it waits until that transaction ends and then finds the lease as the write left
 * it: no write of an earlier holder commits after a later grant. Renewals and releases change no key and do not
 * wait. The cost of that: the next holder waits for a guarded transaction to end, so keep guarded transactions short
 * (a grant waits at most its call bound, then counts as busy), and in REPEATABLE READ or SERIALIZABLE admit first
 * in the transaction (a renewal after the snapshot would otherwise fail the row lock with a serialization error).
 */
public final class PostgresLeaseFence implements Fence {

    private final LeaseRowFence fence;

    /**
     * A fence on the lease table of {@code settings}.
     *
     * @param settings the lock's settings (its table)
     * @param listener told of each refused write
     */
    public PostgresLeaseFence(PostgresLockSettings settings, LockListener listener) {
        String table = Objects.requireNonNull(settings, "settings").table();
        this.fence = new LeaseRowFence("SELECT 1 FROM " + table + " WHERE name = ? AND fencing_token = ? "
                + "AND owner_token IS NOT NULL AND expires_at > clock_timestamp() FOR KEY SHARE",
                "SELECT fencing_token, owner_token IS NOT NULL AND expires_at > clock_timestamp() FROM " + table
                        + " WHERE name = ?", Objects.requireNonNull(listener, "listener"));
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

    /**
     * Admits {@code token} for the lock named {@code resource} while that grant's lease is current.
     *
     * @param connection the connection of the transaction that also makes the guarded write, not in auto-commit mode
     * @param resource   the lock's name
     * @param token      the writer's fencing token
     * @throws StaleFencingTokenException if the lease expired or passed to a newer grant; roll the transaction back
     * @throws IllegalStateException      if {@code connection} is in auto-commit mode; nothing is admitted
     * @throws SQLException               if the storage failed
     */
    @Override
    public void admit(Connection connection, String resource, FencingToken token) throws SQLException {
        fence.admit(connection, resource, token);
    }
}
