package io.seatlock.test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** One held checkpoint (see {@link Pauses#holdFirst}): the first thread to reach it waits until {@link #open()}. */
public final class Pause {

    /** The longest a thread is held: a test that never opens its pause does not leave the thread behind for good. */
    private static final Duration MAX_HOLD = Duration.ofMinutes(10);

    private final String checkpoint;
    private final AtomicReference<Thread> held = new AtomicReference<>();
    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch opened = new CountDownLatch(1);

    Pause(String checkpoint) {
        this.checkpoint = checkpoint;
    }

    /**
     * Called on the reaching thread: the first one waits until opened (at most ten minutes), others pass. An interrupt
     * does not end the wait, as it would not end a paused JVM's (a lost lease's callback interrupts its worker): the
     * thread goes on when opened, with its interrupt flag set for the code after the checkpoint.
     */
    void arrive() {
        if (!held.compareAndSet(null, Thread.currentThread())) {
            return;
        }
        arrived.countDown();
        long deadline = System.nanoTime() + MAX_HOLD.toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (!opened.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                        throw new IllegalStateException("checkpoint '" + checkpoint + "' was never opened");
                    }
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
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
