package io.seatlock.lock.postgres;

import io.seatlock.lock.internal.Durations;
import io.seatlock.lock.spi.InstanceId;
import io.seatlock.lock.spi.SafetyMargin;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * How the PostgreSQL lock behaves.
 *
 * @param table            the lease table, a plain SQL identifier, optionally schema-qualified; its token sequence is
 *                         named after it ({@code <table>_tokens})
 * @param instanceId       readable part of every owner token and the holder's name, the one name of this process
 *                         (default {@code <host>-<pid>})
 * @param callTimeout      the bound of every call to PostgreSQL: borrowing a connection (with a pool whose own wait
 *                         is no longer, see {@link PostgresLock}), the statement and its answer
 * @param clockDriftFactor share of the ttl kept as safety margin for the local validity deadline, in [0, 0.5)
 * @param minSafetyMargin  smallest safety margin, not negative
 * @param minBackoff       first wait between attempts of a blocking acquire, positive
 * @param maxBackoff       longest wait between attempts of a blocking acquire, not below {@code minBackoff}; a waiter
 *                         not woken by a release (an expiry announces nothing) tries again within it
 */
public record PostgresLockSettings(String table, String instanceId, Duration callTimeout, double clockDriftFactor,
                                   Duration minSafetyMargin, Duration minBackoff, Duration maxBackoff) {

    /** The lease table's default name, the one in {@link PostgresLock#DDL_RESOURCE}. */
    public static final String DEFAULT_TABLE = "seatlock.leases";
    private static final Pattern TABLE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,40}(\\.[a-z_][a-z0-9_]{0,40})?");

    /**
     * Checks every setting.
     *
     * @param table            the lease table
     * @param instanceId       this process's name, not blank
     * @param callTimeout      the bound of every call, positive, at most a day
     * @param clockDriftFactor share of the ttl kept as safety margin, in [0, 0.5)
     * @param minSafetyMargin  smallest safety margin, not negative
     * @param minBackoff       first wait of a blocking acquire, positive
     * @param maxBackoff       longest wait of a blocking acquire, not below {@code minBackoff}
     * @throws IllegalArgumentException naming the first bad one
     */
    public PostgresLockSettings {
        if (table == null || !TABLE_NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("lease table must be a plain lower-case SQL identifier of at most 41 "
                    + "characters, optionally schema-qualified, was '" + table + "'");
        }
        if (instanceId == null || instanceId.isBlank()) {
            throw new IllegalArgumentException("instance id must not be blank");
        }
        Durations.requirePositive(callTimeout, "call timeout");
        if (callTimeout.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("call timeout must be at most a day, was " + callTimeout);
        }
        new SafetyMargin(clockDriftFactor, minSafetyMargin); // checks both
        Durations.requireBackoff(minBackoff, maxBackoff);
    }

    /**
     * The table {@code seatlock.leases} (a schema of its own, see {@link PostgresLock#DDL_RESOURCE}), this process's instance id, calls bounded by 2 s, a safety margin of 1 % of
     * the ttl and at least 1 ms (PostgreSQL keeps expiry in microseconds by its own clock), back-off from 10 ms to
     * 200 ms.
     *
     * @return the default settings
     */
    public static PostgresLockSettings defaults() {
        return new PostgresLockSettings(DEFAULT_TABLE, InstanceId.ofThisProcess(), Duration.ofSeconds(2), 0.01,
                Duration.ofMillis(1), Duration.ofMillis(10), Duration.ofMillis(200));
    }

    /**
     * These settings with another lease table.
     *
     * @param name the table
     * @return new settings
     */
    public PostgresLockSettings withTable(String name) {
        return new PostgresLockSettings(name, instanceId, callTimeout, clockDriftFactor, minSafetyMargin, minBackoff,
                maxBackoff);
    }

    /**
     * These settings with another instance id.
     *
     * @param id the new instance id, not blank
     * @return new settings
     */
    public PostgresLockSettings withInstanceId(String id) {
        return new PostgresLockSettings(table, id, callTimeout, clockDriftFactor, minSafetyMargin, minBackoff,
                maxBackoff);
    }

    /**
     * These settings with another call bound.
     *
     * @param timeout the bound of every call, positive
     * @return new settings
     */
    public PostgresLockSettings withCallTimeout(Duration timeout) {
        return new PostgresLockSettings(table, instanceId, timeout, clockDriftFactor, minSafetyMargin, minBackoff,
                maxBackoff);
    }

    /** The part of a ttl this side does not trust: its own clock may run slower than the server's. */
    SafetyMargin safetyMargin() {
        return new SafetyMargin(clockDriftFactor, minSafetyMargin);
    }
}
