package io.seatlock.lock;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts what the lock reports, so tests can assert on it. */
public class CountingListener implements LockListener {
    public final AtomicInteger attempts = new AtomicInteger();
    public final AtomicInteger acquired = new AtomicInteger();
    public final AtomicInteger busy = new AtomicInteger();
    public final AtomicInteger decided = new AtomicInteger();
    public final AtomicInteger unavailable = new AtomicInteger();
    public final AtomicInteger lateGrants = new AtomicInteger();
    public final AtomicInteger released = new AtomicInteger();
    public final AtomicInteger lost = new AtomicInteger();
    public final AtomicInteger renewed = new AtomicInteger();
    public final AtomicInteger renewalFailed = new AtomicInteger();
    public final AtomicInteger fencingRejected = new AtomicInteger();

    @Override
    public void onDecided(String group) {
        decided.incrementAndGet();
    }

    @Override
    public void onAttempt(String group) {
        attempts.incrementAndGet();
    }

    @Override
    public void onAcquired(String group, OverlapImpact impact) {
        acquired.incrementAndGet();
    }

    @Override
    public void onLateGrant(String group) {
        lateGrants.incrementAndGet();
    }

    @Override
    public void onBusy(String group) {
        busy.incrementAndGet();
    }

    @Override
    public void onUnavailable(String group) {
        unavailable.incrementAndGet();
    }

    @Override
    public void onReleased(String group, Duration held) {
        released.incrementAndGet();
    }

    @Override
    public void onLost(String group, OverlapImpact impact, Duration held) {
        lost.incrementAndGet();
    }

    @Override
    public void onRenewed(String group) {
        renewed.incrementAndGet();
    }

    @Override
    public void onRenewalFailed(String group) {
        renewalFailed.incrementAndGet();
    }

    @Override
    public void onFencingRejected(String resource) {
        fencingRejected.incrementAndGet();
    }
}
