package io.seatlock.lock.jdbc.internal;

import io.seatlock.lock.internal.Durations;
import io.seatlock.lock.spi.LeaseTiming;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Every setting of a lock on a lease table, checked together: the public settings of each such lock hold one.
 *
 * @param table       the lease table, a plain lower-case SQL identifier of at most 41 characters, optionally
 *                    schema-qualified (names derived from it stay within every database's identifier limit)
 * @param instanceId  this process's name, not blank
 * @param callTimeout the bound of every call, positive, at most a day
 * @param timing      the safety margin and the back-off
 */
public record LeaseTableSettings(String table, String instanceId, Duration callTimeout, LeaseTiming timing) {

    private static final Pattern TABLE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,40}(\\.[a-z_][a-z0-9_]{0,40})?");

    /** Checks every setting. */
    public LeaseTableSettings {
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

    public LeaseTableSettings withTable(String name) {
        return new LeaseTableSettings(name, instanceId, callTimeout, timing);
    }

    public LeaseTableSettings withInstanceId(String id) {
        return new LeaseTableSettings(table, id, callTimeout, timing);
    }

    public LeaseTableSettings withCallTimeout(Duration timeout) {
        return new LeaseTableSettings(table, instanceId, timeout, timing);
    }

    public LeaseTableSettings withTiming(LeaseTiming newTiming) {
        return new LeaseTableSettings(table, instanceId, callTimeout, newTiming);
    }

    /** The settings' fields as a lock's settings print them, e.g. {@code [table=..., ...]}. */
    public String fields() {
        return toString().substring("LeaseTableSettings".length());
    }
}
