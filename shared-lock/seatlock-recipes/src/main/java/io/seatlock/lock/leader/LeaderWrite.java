package io.seatlock.lock.leader;

import io.seatlock.lock.FencingToken;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@link LeaderElection#writeAsLeader} did: wrote in an epoch the fence admitted (with what the work returned,
 * possibly null), or nothing because this candidate did not lead. A write that storage refused as stale is neither:
 * it is a {@link io.seatlock.lock.StaleFencingTokenException}, so the caller's transaction rolls back.
 *
 * @param <T> what the work returns
 */
public final class LeaderWrite<T> {

    private static final LeaderWrite<?> NOT_LEADING = new LeaderWrite<>(null, null);

    private final @Nullable FencingToken epoch;
    private final @Nullable T value;

    private LeaderWrite(@Nullable FencingToken epoch, @Nullable T value) {
        this.epoch = epoch;
        this.value = value;
    }

    static <T> LeaderWrite<T> wrote(FencingToken epoch, @Nullable T value) {
        return new LeaderWrite<>(Objects.requireNonNull(epoch, "epoch"), value);
    }

    @SuppressWarnings("unchecked")
    static <T> LeaderWrite<T> notLeading() {
        return (LeaderWrite<T>) NOT_LEADING;
    }

    /**
     * Whether this candidate led, the fence admitted its epoch and the work ran.
     *
     * @return true if written
     */
    public boolean wrote() {
        return epoch != null;
    }

    /**
     * The epoch the write was admitted in.
     *
     * @return the epoch, or empty if nothing was written (not leading)
     */
    public Optional<FencingToken> epoch() {
        return Optional.ofNullable(epoch);
    }

    /**
     * What the work returned.
     *
     * @return its value, or empty if it returned null or nothing was written; {@link #wrote()} tells which
     */
    public Optional<T> value() {
        return Optional.ofNullable(value);
    }

    @Override
    public String toString() {
        return wrote() ? "wrote in epoch " + epoch : "not leading";
    }
}
