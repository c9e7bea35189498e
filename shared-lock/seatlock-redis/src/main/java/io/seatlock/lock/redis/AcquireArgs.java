package io.seatlock.lock.redis;

import org.jspecify.annotations.Nullable;

import java.time.Duration;

/** What an acquire call sends beside its names: the ttl arguments as text, and when it was sent. */
final class AcquireArgs {

    private final long fenceKeptAfterLeaseMillis;
    private volatile @Nullable Ttl last;

    /** @param fenceKeptAfterLease how long a fence counter outlives its last lease */
    AcquireArgs(Duration fenceKeptAfterLease) {
        this.fenceKeptAfterLeaseMillis = fenceKeptAfterLease.toMillis();
    }

    /** The acquire script's ttl arguments as text; an application uses few ttls, so the last one is kept. */
    record Ttl(long millis, String lease, String fence) {
    }

    Ttl ttl(long millis) {
        Ttl kept = last;
        if (kept == null || kept.millis() != millis) {
            kept = new Ttl(millis, Long.toString(millis), Long.toString(millis + fenceKeptAfterLeaseMillis));
            last = kept;
        }
        return kept;
    }

    /**
     * When the acquire script was handed to the connection, after any connect: the lease's clock starts there, still
     * before Redis runs the script, so the local deadline stays on the safe side. Read once the answer is in.
     */
    static final class SendClock implements Runnable {
        private long at;

        @Override
        public void run() {
            at = System.nanoTime();
        }

        long at() {
            return at;
        }
    }
}
