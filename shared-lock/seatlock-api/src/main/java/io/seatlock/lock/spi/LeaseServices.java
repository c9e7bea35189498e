package io.seatlock.lock.spi;

import io.seatlock.lock.internal.CallbackThreads;
import io.seatlock.lock.LockListener;

import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * For implementations: what a {@link StoreLease} needs from the lock that granted it, handed over once, so that the
 * lease never reaches back into the lock: the store's name for messages, the call bound, the safety margin, the
 * lock's guarded listener, its keep-alive and callback threads, and who to tell when a lease ends. A lock gets it from
 * its {@link HeldLeases#services}; a lease only passes it to {@link StoreLease}'s constructor.
 */
public final class LeaseServices {

    // read by StoreLease alone, in this package: a handle with no accessors to keep stable
    final String store;
    final CallBound calls;
    final SafetyMargin margin;
    final LockListener listener;
    final ScheduledExecutorService watchdogs;
    final CallbackThreads callbacks;
    final Consumer<? super StoreLease> ended;

    LeaseServices(String store, CallBound calls, SafetyMargin margin, LockListener listener,
                  ScheduledExecutorService watchdogs, CallbackThreads callbacks, Consumer<? super StoreLease> ended) {
        this.store = Objects.requireNonNull(store, "store");
        this.calls = Objects.requireNonNull(calls, "calls");
        this.margin = Objects.requireNonNull(margin, "margin");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.watchdogs = Objects.requireNonNull(watchdogs, "watchdogs");
        this.callbacks = Objects.requireNonNull(callbacks, "callbacks");
        this.ended = Objects.requireNonNull(ended, "ended");
    }
}
