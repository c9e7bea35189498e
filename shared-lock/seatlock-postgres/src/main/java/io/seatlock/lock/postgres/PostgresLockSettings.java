package io.seatlock.lock.postgres;

import io.seatlock.lock.internal.Durations;
import io.seatlock.lock.spi.InstanceId;
import io.seatlock.lock.spi.SafetyMargin;

import java.time.Duration;
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
     * @param clockDriftFactor share of the ttl kept as safety margin, in [0, 0.5)
     * @param minSafetyMargin  smallest safety margin, not negative
     * @param minBackoff       first wait of a blocking acquire, positive
     * @param maxBackoff       longest wait of a blocking acquire, not below {@code minBackoff}
     */
    private record Values(String table, String instanceId, Duration callTimeout, double clockDriftFactor,
                          Duration minSafetyMargin, Duration minBackoff, Duration maxBackoff) {
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
            new SafetyMargin(clockDriftFactor, minSafetyMargin); // checks both
            Durations.requireBackoff(minBackoff, maxBackoff);
        }
    }

    private final Values values;

    private PostgresLockSettings(Values values) {
        this.values = values;
    }

    /**
     * The table {@code seatlock.leases} (a schema of its own, see {@link PostgresLock#DDL_RESOURCE}), this process's
     * instance id, calls bounded by 2 s, a safety margin of 1 % of the ttl and at least 1 ms (PostgreSQL keeps expiry
     * in microseconds by its own clock), back-off from 10 ms to 200 ms.
     *
     * @return the default settings
     */
    public static PostgresLockSettings defaults() {
        return new PostgresLockSettings(new Values(DEFAULT_TABLE, InstanceId.ofThisProcess(), Duration.ofSeconds(2),
                0.01, Duration.ofMillis(1), Duration.ofMillis(10), Duration.ofMillis(200)));
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
        return new PostgresLockSettings(new Values(name, v.instanceId(), v.callTimeout(), v.clockDriftFactor(),
                v.minSafetyMargin(), v.minBackoff(), v.maxBackoff()));
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
        return new PostgresLockSettings(new Values(v.table(), id, v.callTimeout(), v.clockDriftFactor(),
                v.minSafetyMargin(), v.minBackoff(), v.maxBackoff()));
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
        return new PostgresLockSettings(new Values(v.table(), v.instanceId(), timeout, v.clockDriftFactor(),
                v.minSafetyMargin(), v.minBackoff(), v.maxBackoff()));
    }

    /**
     * These settings with another local safety margin: the part of each ttl the client does not count on.
     *
     * @param clockDriftFactor share of the ttl, in [0, 0.5)
     * @param minimum          the smallest margin, not negative
     * @return new settings
     * @throws IllegalArgumentException for a factor or minimum out of range
     */
    public PostgresLockSettings withSafetyMargin(double clockDriftFactor, Duration minimum) {
        Values v = values;
        return new PostgresLockSettings(new Values(v.table(), v.instanceId(), v.callTimeout(), clockDriftFactor,
                minimum, v.minBackoff(), v.maxBackoff()));
    }

    /**
     * These settings with other pauses between a blocking acquire's attempts; a waiter not woken by a release (an
     * expiry announces nothing) tries again within the longest.
     *
     * @param first   the first pause, positive
     * @param longest the longest pause, not below {@code first}
     * @return new settings
     * @throws IllegalArgumentException for a pause that is not positive, or a longest below the first
     */
    public PostgresLockSettings withBackoff(Duration first, Duration longest) {
        Values v = values;
        return new PostgresLockSettings(new Values(v.table(), v.instanceId(), v.callTimeout(), v.clockDriftFactor(),
                v.minSafetyMargin(), first, longest));
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
     * The share of each ttl kept as local safety margin.
     *
     * @return the clock drift factor
     */
    public double clockDriftFactor() {
        return values.clockDriftFactor();
    }

    /**
     * The smallest local safety margin.
     *
     * @return the minimum margin
     */
    public Duration minSafetyMargin() {
        return values.minSafetyMargin();
    }

    /**
     * The first pause of a blocking acquire.
     *
     * @return the first pause
     */
    public Duration minBackoff() {
        return values.minBackoff();
    }

    /**
     * The longest pause of a blocking acquire.
     *
     * @return the longest pause
     */
    public Duration maxBackoff() {
        return values.maxBackoff();
    }

    /** The part of a ttl this side does not trust: its own clock may run slower than the server's. */
    SafetyMargin safetyMargin() {
        return new SafetyMargin(values.clockDriftFactor(), values.minSafetyMargin());
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
