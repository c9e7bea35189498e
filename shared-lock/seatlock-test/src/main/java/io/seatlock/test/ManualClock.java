package io.seatlock.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when the test says so, for {@link InMemoryLock}: leases expire, renew and are
 * lost exactly when {@link #advance(Duration)} takes them past their deadlines.
 */
public final class ManualClock {

    private final AtomicLong nanos = new AtomicLong();
    private final List<Runnable> onAdvance = new CopyOnWriteArrayList<>();

    /** A clock at time zero. */
    public ManualClock() {
    }

    /**
     * Now, on this clock.
     *
     * @return nanoseconds since the clock was made, plus every advance
     */
    public long nanos() {
        return nanos.get();
    }

    /**
     * Moves time forward; whatever listens (renewals, expiries) runs on this thread before this returns.
     *
     * @param by how far, not negative
     */
    public void advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("a clock does not go back: " + by);
        }
        nanos.addAndGet(by.toNanos());
        onAdvance.forEach(Runnable::run);
    }

    void onAdvance(Runnable listener) {
        onAdvance.add(listener);
    }
}
