package io.seatlock.lock;

import java.time.Duration;
import java.util.List;

record CompositeLockListener(List<LockListener> listeners) implements LockListener {

    @Override
    public void onAttempt(String group) {
        listeners.forEach(l -> l.onAttempt(group));
    }

    @Override
    public void onAcquired(String group, OverlapImpact impact) {
        listeners.forEach(l -> l.onAcquired(group, impact));
    }

    @Override
    public void onBusy(String group) {
        listeners.forEach(l -> l.onBusy(group));
    }

    @Override
    public void onDecided(String group) {
        listeners.forEach(l -> l.onDecided(group));
    }

    @Override
    public void onUnavailable(String group) {
        listeners.forEach(l -> l.onUnavailable(group));
    }

    @Override
    public void onLateGrant(String group) {
        listeners.forEach(l -> l.onLateGrant(group));
    }

    @Override
    public void onReleased(String group, Duration held) {
        listeners.forEach(l -> l.onReleased(group, held));
    }

    @Override
    public void onLost(String group, Duration held) {
        listeners.forEach(l -> l.onLost(group, held));
    }

    @Override
    public void onRenewed(String group) {
        listeners.forEach(l -> l.onRenewed(group));
    }

    @Override
    public void onRenewalFailed(String group) {
        listeners.forEach(l -> l.onRenewalFailed(group));
    }

    @Override
    public void onFencingRejected(String resource) {
        listeners.forEach(l -> l.onFencingRejected(resource));
    }
}
