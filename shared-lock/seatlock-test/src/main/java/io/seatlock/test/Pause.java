package io.seatlock.test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** One held checkpoint (see {@link Pauses#holdFirst}): the first thread to reach it waits until {@link #open()}. */
public final class Pause {

    private final String checkpoint;
    private final AtomicReference<Thread> held = new AtomicReference<>();
    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch opened = new CountDownLatch(1);

    Pause(String checkpoint) {
        this.checkpoint = checkpoint;
    }

    /** Called on the reaching thread: the first one waits until opened (at most ten minutes), others pass. */
    void arrive() {
        if (!held.compareAndSet(null, Thread.currentThread())) {
            return;
        }
        arrived.countDown();
        try {
            if (!opened.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("checkpoint '" + checkpoint + "' was never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until a thread is held here, at most {@link Pauses#DEFAULT_WAIT}.
     *
     * @return the held thread
     * @throws AssertionError if none arrived in time
     */
    public Thread awaitArrival() {
        return awaitArrival(Pauses.DEFAULT_WAIT);
    }

    /**
     * Waits until a thread is held here.
     *
     * @param atMost how long to wait
     * @return the held thread
     * @throws AssertionError if none arrived in time
     */
    public Thread awaitArrival(Duration atMost) {
        try {
            if (!arrived.await(atMost.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new AssertionError("no thread reached checkpoint '" + checkpoint + "' within " + atMost);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for checkpoint '" + checkpoint + "'", e);
        }
        return held.get();
    }

    /** Lets the held thread go on (and any thread that reaches the checkpoint later pass). */
    public void open() {
        opened.countDown();
    }

    /**
     * Whether a thread reached the checkpoint.
     *
     * @return true once one is (or was) held here
     */
    public boolean hasArrived() {
        return arrived.getCount() == 0;
    }
}
