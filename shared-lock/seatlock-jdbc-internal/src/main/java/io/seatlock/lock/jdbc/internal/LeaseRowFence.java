package io.seatlock.lock.jdbc.internal;

import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.internal.FenceChecks;
import io.seatlock.lock.spi.LockListeners;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The lease fence of a lock on a lease table, whatever the database: a locking read of the writer's lease row in the
 * caller's transaction, which a later grant waits for, admits the write; else it is refused, saying why.
 */
public final class LeaseRowFence {

    private static final Logger log = LoggerFactory.getLogger(LeaseRowFence.class);

    private final String guard;
    private final String current;
    private final LockListener listener;

    /**
     * A fence.
     *
     * @param guard    selects a row for (name, token) only while that lease is current, and locks it until the
     *                 transaction ends, so that a new grant waits for it
     * @param current  selects the name's newest token and whether its lease is live
     * @param listener told of each refused write
     */
    public LeaseRowFence(String guard, String current, LockListener listener) {
        this.guard = guard;
        this.current = current;
        this.listener = LockListeners.guarded(List.of(listener));
    }

    /**
     * Admits {@code token} for the lock named {@code resource} while that grant's lease is current.
     *
     * @param connection the connection of the transaction that also makes the guarded write, not in auto-commit mode
     * @param resource   the lock's name
     * @param token      the writer's fencing token
     * @throws StaleFencingTokenException if the lease expired or passed to a newer grant
     * @throws IllegalStateException      if {@code connection} is in auto-commit mode; nothing is admitted
     * @throws SQLException               if the storage failed
     */
    public void admit(Connection connection, String resource, FencingToken token) throws SQLException {
        // committed on its own, the row lock would end before the write it guards
        FenceChecks.requireAdmissible(connection, resource, token, "lease fence");
        try (PreparedStatement s = connection.prepareStatement(guard)) {
            s.setString(1, resource);
            s.setLong(2, token.value());
            try (ResultSet rs = s.executeQuery()) {
                if (rs.next()) {
                    return;
                }
            }
        }
        listener.onFencingRejected(resource);
        StaleFencingTokenException refused = new StaleFencingTokenException(resource, token,
                why(connection, resource, token));
        log.atWarn().addKeyValue("seatlock.event", "fencing-rejected").addKeyValue("seatlock.lock.name", resource)
                .addKeyValue("seatlock.lock.fencing-token", token.value()).log(refused.getMessage());
        throw refused;
    }

    private String why(Connection connection, String resource, FencingToken token) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(current)) {
            s.setString(1, resource);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return "the lock has no lease";
                }
                long newest = rs.getLong(1);
                if (newest != token.value()) {
                    return "the lease passed to a newer grant (token " + newest + ")";
                }
                return rs.getBoolean(2) ? "the lease is no longer current" : "the lease expired (or was released)";
            }
        }
    }
}
