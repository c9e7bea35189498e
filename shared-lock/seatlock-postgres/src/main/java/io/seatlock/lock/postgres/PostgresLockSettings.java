package io.seatlock.lock.postgres;

import io.seatlock.lock.jdbc.internal.LeaseTableSettings;
import io.seatlock.lock.spi.InstanceId;
import io.seatlock.lock.spi.LeaseTiming;

import java.time.Duration;

/**
 * How the PostgreSQL lock behaves: {@link #defaults()}, then a {@code with…} method for each setting to change.
 * Immutable; equal when every setting is.
 */
public final class PostgresLockSettings {

    /** The lease table's default name, the one in {@link PostgresLock#DDL_RESOURCE}. */
    public static final String DEFAULT_TABLE = "seatlock.leases";

    private final LeaseTableSettings values;

    private PostgresLockSettings(LeaseTableSettings values) {
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
        return new PostgresLockSettings(new LeaseTableSettings(DEFAULT_TABLE, InstanceId.ofThisProcess(), Duration.ofSeconds(2),
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
        return new PostgresLockSettings(values.withTable(name));
    }

    /**
     * These settings with another instance id.
     *
     * @param id readable part of every owner token and the holder's name, not blank
     * @return new settings
     * @throws IllegalArgumentException for a blank id
     */
    public PostgresLockSettings withInstanceId(String id) {
        return new PostgresLockSettings(values.withInstanceId(id));
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
        return new PostgresLockSettings(values.withCallTimeout(timeout));
    }

    /**
     * These settings with another safety margin and back-off.
     *
     * @param timing the timing, e.g. {@code LeaseTiming.defaults().withBackoff(first, longest)}
     * @return new settings
     */
    public PostgresLockSettings withTiming(LeaseTiming timing) {
        return new PostgresLockSettings(values.withTiming(timing));
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
        return "PostgresLockSettings" + values.fields();
    }
}
