package io.seatlock.lock.spi;

import io.seatlock.lock.internal.Callbacks;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * For implementations of {@link io.seatlock.lock.DistributedLock}: how to call {@link LockListener}s.
 * Every call is guarded as {@link Callbacks} says: a listener that throws is logged and skipped, the other
 * listeners still hear the event, and the lock goes on as if nothing had been listening.
 */
public final class LockListeners {

    private LockListeners() {
    }

    /**
     * The metric group of a lock name: the name up to its first ':' (e.g. {@code seat}), so per-seat names do
     * not explode metric cardinality.
     *
     * @param name a lock name
     * @return the group
     */
    public static String groupOf(String name) {
        int colon = name.indexOf(':');
        return colon > 0 ? name.substring(0, colon) : name;
    }

    /**
     * One listener that tells each of {@code listeners} in order, each call guarded.
     *
     * @param listeners the listeners, possibly none
     * @return a listener that never throws
     */
    public static LockListener guarded(List<? extends LockListener> listeners) {
        // Nothing to guard, or guarded already (the auto-configuration guards, then the lock does): no second
        // wrapper on the lock's hot path.
        if (listeners.stream().allMatch(l -> l == LockListener.NOOP)) {
            return LockListener.NOOP;
        }
        if (listeners.size() == 1 && listeners.get(0) instanceof Guarded already) {
            return already;
        }
        return new Guarded(List.copyOf(listeners));
    }

    private record Guarded(List<LockListener> listeners) implements LockListener {

        private void emit(String event, Consumer<LockListener> call) {
            for (LockListener listener : listeners) {
                try {
                    call.accept(listener);
                } catch (RuntimeException | Error e) {
                    Callbacks.ignore(e, "lock listener " + listener.getClass().getName() + " on " + event);
                }
            }
        }

        @Override
        public void onAttempt(String group) {
            emit("onAttempt", l -> l.onAttempt(group));
        }

        @Override
        public void onAcquired(String group, OverlapImpact impact) {
            emit("onAcquired", l -> l.onAcquired(group, impact));
        }

        @Override
        public void onBusy(String group) {
            emit("onBusy", l -> l.onBusy(group));
        }

        @Override
        public void onDecided(String group) {
            emit("onDecided", l -> l.onDecided(group));
        }

        @Override
        public void onUnavailable(String group) {
            emit("onUnavailable", l -> l.onUnavailable(group));
        }

        @Override
        public void onLateGrant(String group) {
            emit("onLateGrant", l -> l.onLateGrant(group));
        }

        @Override
        public void onReleased(String group, Duration held) {
            emit("onReleased", l -> l.onReleased(group, held));
        }

        @Override
        public void onLost(String group, OverlapImpact impact, Duration held) {
            emit("onLost", l -> l.onLost(group, impact, held));
        }

        @Override
        public void onRenewed(String group) {
            emit("onRenewed", l -> l.onRenewed(group));
        }

        @Override
        public void onRenewalFailed(String group) {
            emit("onRenewalFailed", l -> l.onRenewalFailed(group));
        }

        @Override
        public void onFencingRejected(String resource) {
            emit("onFencingRejected", l -> l.onFencingRejected(resource));
        }
    }
}
