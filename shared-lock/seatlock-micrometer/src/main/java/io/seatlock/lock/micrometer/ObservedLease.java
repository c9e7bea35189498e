package io.seatlock.lock.micrometer;

import io.micrometer.observation.Observation;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A lease whose holding is observed as a long task ({@link LockObservations#LEASE}), stopped once: by a release (its
 * outcome), by a renewal or release that found the lease gone (lost), by the lost-lease callback of a kept-alive lease,
 * or by a release that got no answer (unknown). Every call goes to the lease itself.
 */
final class ObservedLease implements LockLease {

    private final LockLease lease;
    private final Observation held;
    private final AtomicBoolean ended = new AtomicBoolean();

    ObservedLease(LockLease lease, Observation held) {
        this.lease = lease;
        this.held = held;
    }

    private void end(String outcome) {
        if (ended.compareAndSet(false, true)) {
            LockObservations.outcome(held, outcome);
            if (outcome.equals("lost")) {
                held.event(Observation.Event.of("seatlock.lease.lost", "the lease was lost"));
            }
            held.stop();
        }
    }

    private ReleaseOutcome ended(ReleaseOutcome outcome) {
        end(outcome == ReleaseOutcome.LOST ? "lost" : "released");
        return outcome;
    }

    private RuntimeException unanswered(RuntimeException e) {
        if (e instanceof LockUnavailableException) {
            held.error(e);
            end("unknown");
        }
        return e;
    }

    @Override
    public ReleaseOutcome release() {
        try {
            return ended(lease.release());
        } catch (RuntimeException e) {
            throw unanswered(e);
        }
    }

    @Override
    public ReleaseOutcome releaseDecided(Duration keepMarkerFor) {
        try {
            return ended(lease.releaseDecided(keepMarkerFor));
        } catch (IllegalArgumentException e) {
            throw e; // refused before anything was sent: the lease is still held
        } catch (RuntimeException e) {
            throw unanswered(e);
        }
    }

    @Override
    public ReleaseOutcome releaseAfter(Duration keepFor) {
        try {
            return ended(lease.releaseAfter(keepFor));
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw unanswered(e);
        }
    }

    @Override
    public void close() {
        try {
            release();
        } catch (RuntimeException e) {
            // as the lease's own close: never throws; the lease expires on its own
        }
    }

    @Override
    public boolean renew() {
        return renewed(lease.renew());
    }

    @Override
    public boolean renew(Duration ttl) {
        return renewed(lease.renew(ttl));
    }

    private boolean renewed(boolean ours) {
        if (!ours) {
            end("lost");
        }
        return ours;
    }

    @Override
    public LockLease keepAlive(Runnable onLost) {
        java.util.Objects.requireNonNull(onLost, "onLost callback must not be null");
        lease.keepAlive(() -> {
            end("lost");
            onLost.run();
        });
        return this;
    }

    @Override
    public String name() {
        return lease.name();
    }

    @Override
    public String ownerToken() {
        return lease.ownerToken();
    }

    @Override
    public FencingToken fencingToken() {
        return lease.fencingToken();
    }

    @Override
    public OverlapImpact impact() {
        return lease.impact();
    }

    @Override
    public boolean isValid() {
        return lease.isValid();
    }

    @Override
    public Duration validFor() {
        return lease.validFor();
    }

    @Override
    public boolean isKeptAlive() {
        return lease.isKeptAlive();
    }

    @Override
    public boolean isLost() {
        return lease.isLost();
    }

    @Override
    public String toString() {
        return lease.toString();
    }
}
