package io.seatlock.lock.postgres;

import io.seatlock.lock.internal.Durations;
import io.seatlock.lock.spi.InstanceId;
import io.seatlock.lock.spi.LeaseTiming;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How the PostgreSQL lock behaves: {@link #defaults()}, then a {@code with…} method for each setting to change.
 * Immutable; equal when every setting is.
 */
public final class PostgresLockSettings {

    /** The lease table's default name, the one in {@link PostgresLock#DDL_RESOURCE}. */
    public static final String DEFAULT_TABLE = "seatlock.leases";
    private static final Pattern TABLE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,40}(\\.[a-z_][a-z0-9_]{0,40})?");

    /**
     * Every setting, checked together; a record for value equality, private so that no caller depends on its order.
     *
     * @param table            the lease table
     * @param instanceId       this process's name, not blank
     * @param callTimeout      the bound of every call, positive, at most a day
     * @param timing           the safety margin and the back-off
     */
    private record Values(String table, String instanceId, Duration callTimeout, LeaseTiming timing) {
        Values {
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
            Objects.requireNonNull(timing, "timing");
        }
    }

    private final Values values;

    private PostgresLockSettings(Values values) {
        this.values = values;
    }

    /**
     * The table {@code seatlock.leases} (a schema of its own, see {@link PostgresLock#DDL_RESOURCE}), this process's
     * instance id, calls bounded by 2 s, {@link LeaseTiming#defaults()} (PostgreSQL keeps expiry in microseconds by its
     * own clock).
     *
     * @return the default settings
     */
    public static PostgresLockSettings defaults() {
        return new PostgresLockSettings(new Values(DEFAULT_TABLE, InstanceId.ofThisProcess(), Duration.ofSeconds(2),
                LeaseTiming.defaults()));
    }

    /**
     * These settings with another lease table.
     *
     * @param name a plain lower-case SQL identifier, optionally schema-qualified; its token sequence is named after
     *             it ({@code <table>_tokens})
     * @return new settings
     * @throws IllegalArgumentException for a name that is not one
     */
    public PostgresLockSettings withTable(String name) {
        Values v = values;
        return new PostgresLockSettings(new Values(name, v.instanceId(), v.callTimeout(), v.timing()));
    }

    /**
     * These settings with another instance id.
     *
     * @param id readable part of every owner token and the holder's name, not blank
     * @return new settings
     * @throws IllegalArgumentException for a blank id
     */
    public PostgresLockSettings withInstanceId(String id) {
        Values v = values;
        return new PostgresLockSettings(new Values(v.table(), id, v.callTimeout(), v.timing()));
    }

    /**
     * These settings with another call bound.
     *
     * @param timeout the bound of every call to PostgreSQL (borrowing a connection, with a pool whose own wait is no
     *                longer, see {@link PostgresLock}; the statement and its answer), positive, at most a day
     * @return new settings
     * @throws IllegalArgumentException for a bound out of range
     */
    public PostgresLockSettings withCallTimeout(Duration timeout) {
        Values v = values;
        return new PostgresLockSettings(new Values(v.table(), v.instanceId(), timeout, v.timing()));
    }

    /**
     * These settings with another safety margin and back-off.
     *
     * @param timing the timing, e.g. {@code LeaseTiming.defaults().withBackoff(first, longest)}
     * @return new settings
     */
    public PostgresLockSettings withTiming(LeaseTiming timing) {
        Values v = values;
        return new PostgresLockSettings(new Values(v.table(), v.instanceId(), v.callTimeout(), timing));
    }

    /**
     * The lease table.
     *
     * @return its name
     */
    public String table() {
        return values.table();
    }

    /**
     * This process's name in owner tokens.
     *
     * @return the instance id
     */
    public String instanceId() {
        return values.instanceId();
    }

    /**
     * The bound of every call to PostgreSQL.
     *
     * @return the call timeout
     */
    public Duration callTimeout() {
        return values.callTimeout();
    }

    /**
     * The safety margin and the back-off.
     *
     * @return the timing
     */
    public LeaseTiming timing() {
        return values.timing();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PostgresLockSettings settings && values.equals(settings.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "PostgresLockSettings" + values.toString().substring("Values".length());
    }
}
