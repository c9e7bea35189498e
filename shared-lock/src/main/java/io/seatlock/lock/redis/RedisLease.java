package io.seatlock.lock.redis;

import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockSpec;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** One grant. Renewal and release share this object's monitor, so a renewal never outlives release. */
final class RedisLease implements LockLease {

    private static final Logger log = LoggerFactory.getLogger(RedisLease.class);

    private enum State { HELD, LOST, RELEASED }

    private final RedisLockClient client;
    private final LockSpec spec;
    private final String owner;
    private final FencingToken fencingToken;
    private final String group;
    private final long acquiredAtNanos;
    private volatile long deadlineNanos;
    private volatile State state = State.HELD;
    private ScheduledFuture<?> renewal;
    private Runnable onLost;

    RedisLease(RedisLockClient client, LockSpec spec, String owner, FencingToken fencingToken, long startNanos) {
        this.client = client;
        this.spec = spec;
        this.owner = owner;
        this.fencingToken = fencingToken;
        this.group = LockListener.groupOf(spec.name());
        this.acquiredAtNanos = startNanos;
        this.deadlineNanos = deadlineFrom(startNanos, spec.ttl());
    }

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public String ownerToken() {
        return owner;
    }

    @Override
    public FencingToken fencingToken() {
        return fencingToken;
    }

    @Override
    public OverlapImpact impact() {
        return spec.impact();
    }

    @Override
    public boolean isValid() {
        return state == State.HELD && System.nanoTime() - deadlineNanos < 0;
    }

    @Override
    public Duration validFor() {
        return isValid() ? Duration.ofNanos(deadlineNanos - System.nanoTime()) : Duration.ZERO;
    }

    @Override
    public boolean isLost() {
        return state == State.LOST;
    }

    @Override
    public boolean renew() {
        return renew(spec.ttl());
    }

    @Override
    public synchronized boolean renew(Duration ttl) {
        LockSpec.requireValidTtl(ttl);
        if (state == State.RELEASED) {
            throw new IllegalStateException("lease on '" + spec.name() + "' was released; acquire the lock again");
        }
        if (state == State.LOST) {
            return false;
        }
        long start = System.nanoTime();
        if (client.extend(spec.name(), owner, ttl)) {
            deadlineNanos = deadlineFrom(start, ttl);
            client.listener().onRenewed(group);
            return true;
        }
        markLost();
        return false;
    }

    @Override
    public synchronized LockLease keepAlive(Runnable onLost) {
        Objects.requireNonNull(onLost, "onLost callback must not be null");
        if (state != State.HELD) {
            throw new IllegalStateException("lease on '" + spec.name() + "' is " + state.name().toLowerCase());
        }
        if (renewal != null) {
            throw new IllegalStateException("lease on '" + spec.name() + "' is already kept alive");
        }
        this.onLost = onLost;
        long period = Math.max(1, spec.ttl().toMillis() / 3);
        renewal = client.renewals().scheduleAtFixedRate(() -> renewInBackground(period), period, period,
                TimeUnit.MILLISECONDS);
        return this;
    }

    private synchronized void renewInBackground(long periodMillis) {
        if (state != State.HELD) {
            return;
        }
        try {
            renew(spec.ttl());
        } catch (LockUnavailableException e) {
            client.listener().onRenewalFailed(group);
            // Give up before the deadline: the next tick might only come after it.
            if (validFor().toMillis() <= periodMillis) {
                log.warn("Lock '{}' could not be renewed before its local deadline; treating it as lost",
                        spec.name());
                markLost();
            }
        }
    }

    /** Caller holds the monitor. */
    private void markLost() {
        if (state != State.HELD) {
            return;
        }
        state = State.LOST;
        cancelRenewal();
        client.forget(this);
        client.listener().onLost(group, heldFor());
        if (onLost != null) {
            try {
                onLost.run();
            } catch (RuntimeException e) {
                log.warn("lost-lease callback of '{}' failed", spec.name(), e);
            }
        }
    }

    @Override
    public synchronized ReleaseOutcome release() {
        if (state == State.RELEASED) {
            return ReleaseOutcome.ALREADY_RELEASED;
        }
        State before = state;
        state = State.RELEASED;
        cancelRenewal();
        client.forget(this);
        boolean deleted = client.delete(spec.name(), owner);
        if (before == State.LOST) {
            return ReleaseOutcome.LOST;
        }
        if (deleted) {
            client.listener().onReleased(group, heldFor());
            return ReleaseOutcome.RELEASED;
        }
        client.listener().onLost(group, heldFor());
        return ReleaseOutcome.LOST;
    }

    @Override
    public synchronized ReleaseOutcome releaseAfter(Duration keepFor) {
        if (keepFor == null || keepFor.toMillis() < 1 || state != State.HELD) {
            return release();
        }
        boolean stillOurs = renew(keepFor);
        state = State.RELEASED;
        cancelRenewal();
        client.forget(this);
        if (stillOurs) {
            client.listener().onReleased(group, heldFor());
            return ReleaseOutcome.RELEASED;
        }
        return ReleaseOutcome.LOST;
    }

    @Override
    public void close() {
        try {
            release();
        } catch (RuntimeException e) {
            // The key expires on its own; the caller's own exception matters more than this one.
            log.warn("could not release lock '{}': {}", spec.name(), e.getMessage());
        }
    }

    private void cancelRenewal() {
        if (renewal != null) {
            renewal.cancel(false);
            renewal = null;
        }
    }

    private Duration heldFor() {
        return Duration.ofNanos(System.nanoTime() - acquiredAtNanos);
    }

    private long deadlineFrom(long startNanos, Duration ttl) {
        return startNanos + ttl.toNanos() - client.settings().safetyMarginNanos(ttl);
    }

    @Override
    public String toString() {
        return "LockLease[" + spec.name() + ", token " + fencingToken + ", " + state.name().toLowerCase() + "]";
    }
}
