package io.seatlock.lock.spi;

import io.seatlock.lock.LockListener;

import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * For implementations: what a {@link StoreLease} needs from the lock that granted it, handed over once, so that the
 * lease never reaches back into the lock.
 *
 * @param store     the store's name in messages, such as {@code Redis}
 * @param calls     the bound of every call to the store
 * @param margin    the safety margin taken off every ttl
 * @param listener  told what the lease does; guarded ({@link LockListeners#guarded})
 * @param watchdogs runs the keep-alive schedule; nothing that blocks runs there
 * @param callbacks runs lost-lease callbacks
 * @param ended     told once when a lease ends (released or lost), to drop it from the held ones
 */
public record LeaseServices(String store, CallBound calls, SafetyMargin margin, LockListener listener,
                            ScheduledExecutorService watchdogs, CallbackThreads callbacks,
                            Consumer<? super StoreLease> ended) {

    /**
     * Checks that none is missing.
     *
     * @param store     the store's name
     * @param calls     the call bound
     * @param margin    the safety margin
     * @param listener  the guarded listener
     * @param watchdogs the keep-alive scheduler
     * @param callbacks the callback threads
     * @param ended     told when a lease ends
     */
    public LeaseServices {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(calls, "calls");
        Objects.requireNonNull(margin, "margin");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(watchdogs, "watchdogs");
        Objects.requireNonNull(callbacks, "callbacks");
        Objects.requireNonNull(ended, "ended");
    }
}
