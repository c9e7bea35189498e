package io.seatlock.lock.internal;

import io.seatlock.lock.FencingToken;
import org.jspecify.annotations.Nullable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;

/** For implementations of {@link io.seatlock.lock.Fence}: what every fence on a JDBC connection refuses first. */
public final class FenceChecks {

    private FenceChecks() {
    }

    /**
     * Refuses a call the fence cannot admit, before anything is sent: a blank resource, no token, or a connection in
     * auto-commit mode, where the admission would commit on its own and neither guard the write nor roll back with it.
     *
     * @param connection the caller's connection
     * @param resource   what is fenced
     * @param token      the writer's fencing token
     * @param fence      the fence's name in the message, such as {@code token fence}
     * @throws IllegalArgumentException if {@code resource} is null or blank
     * @throws NullPointerException     if {@code token} is null
     * @throws IllegalStateException    if {@code connection} is in auto-commit mode
     * @throws SQLException             if the connection cannot say
     */
    public static void requireAdmissible(Connection connection, @Nullable String resource,
                                         @Nullable FencingToken token, String fence) throws SQLException {
        if (resource == null || resource.isBlank()) {
            throw new IllegalArgumentException("fenced resource must not be blank");
        }
        Objects.requireNonNull(token, "fencing token must not be null");
        if (connection.getAutoCommit()) {
            throw new IllegalStateException("the " + fence + " admits a write only in that write's transaction, but "
                    + "the connection is in auto-commit mode; begin a transaction (@Transactional, TransactionTemplate "
                    + "or setAutoCommit(false)) and write on the same connection");
        }
    }
}
