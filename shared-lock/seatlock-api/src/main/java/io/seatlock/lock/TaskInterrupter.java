package io.seatlock.lock;

/**
 * {@link DistributedLock#executeLocked}'s lost-lease callback: interrupts the task's thread, but only while the task
 * runs. The callback runs on a thread of its own and may come after the task returned, when that thread (a pooled
 * one, as often) is at other work an interrupt would break.
 */
final class TaskInterrupter implements Runnable {

    private final Thread worker;
    private boolean running = true;

    TaskInterrupter(Thread worker) {
        this.worker = worker;
    }

    @Override
    public synchronized void run() {
        if (running) {
            worker.interrupt();
        }
    }

    /** The task returned or threw: from now on a loss interrupts nobody. */
    synchronized void taskEnded() {
        running = false;
    }
}
