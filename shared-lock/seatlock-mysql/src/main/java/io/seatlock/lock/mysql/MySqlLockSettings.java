package io.seatlock.lock.mysql;

import io.seatlock.lock.jdbc.internal.LeaseTableSettings;
import io.seatlock.lock.spi.InstanceId;
import io.seatlock.lock.spi.LeaseTiming;

import java.time.Duration;

/**
 * How the MySQL/MariaDB lock behaves: {@link #defaults()}, then a {@code with…} method for each setting to change.
 * Immutable; equal when every setting is.
 */
public final class MySqlLockSettings {

    /** The lease table's default name, the one in {@link MySqlLock#DDL_RESOURCE}, in the connection's database. */
    public static final String DEFAULT_TABLE = "seatlock_leases";

    private final LeaseTableSettings values;

    private MySqlLockSettings(LeaseTableSettings values) {
        this.values = values;
    }

    /**
     * The table {@code seatlock_leases} in the connection's database, this process's instance id, calls bounded by
     * 2 s, {@link LeaseTiming#defaults()} (the database keeps expiry in microseconds by its own clock).
     *
     * @return the default settings
     */
    public static MySqlLockSettings defaults() {
        return new MySqlLockSettings(new LeaseTableSettings(DEFAULT_TABLE, InstanceId.ofThisProcess(),
                Duration.ofSeconds(2), LeaseTiming.defaults()));
    }

    /**
     * These settings with another lease table.
     *
     * @param name a plain lower-case SQL identifier, optionally database-qualified; its token table and trigger are
     *             named after it ({@code <table>_tokens}, {@code <table>_deleted})
     * @return new settings
     * @throws IllegalArgumentException for a name that is not one
     */
    public MySqlLockSettings withTable(String name) {
        return new MySqlLockSettings(values.withTable(name));
    }

    /**
     * These settings with another instance id.
     *
     * @param id readable part of every owner token and the holder's name, not blank
     * @return new settings
     * @throws IllegalArgumentException for a blank id
     */
    public MySqlLockSettings withInstanceId(String id) {
        return new MySqlLockSettings(values.withInstanceId(id));
    }

    /**
     * These settings with another call bound.
     *
     * @param timeout the bound of every call to the database (borrowing a connection, with a pool whose own wait is
     *                no longer, see {@link MySqlLock}; the statements and their answers), positive, at most a day
     * @return new settings
     * @throws IllegalArgumentException for a bound out of range
     */
    public MySqlLockSettings withCallTimeout(Duration timeout) {
        return new MySqlLockSettings(values.withCallTimeout(timeout));
    }

    /**
     * These settings with another safety margin and back-off.
     *
     * @param timing the timing, e.g. {@code LeaseTiming.defaults().withBackoff(first, longest)}: the longest pause is
     *               also how late a waiter in another process may learn of a release
     * @return new settings
     */
    public MySqlLockSettings withTiming(LeaseTiming timing) {
        return new MySqlLockSettings(values.withTiming(timing));
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
     * The bound of every call to the database.
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
        return other instanceof MySqlLockSettings settings && values.equals(settings.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "MySqlLockSettings" + values.fields();
    }
}
