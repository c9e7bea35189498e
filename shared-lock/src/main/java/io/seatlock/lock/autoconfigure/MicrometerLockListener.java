package io.seatlock.lock.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;

import java.time.Duration;

/**
 * Lock metrics, tagged by lock group (the name up to its first ':'): {@code seatlock.lock.attempts},
 * {@code .acquired}, {@code .busy}, {@code .unavailable}, {@code .late.grants} (granted too late to be valid), {@code .released}, {@code .lost}
 * (expired while held), {@code .renewals{outcome}}, {@code .fencing.rejections} and the
 * {@code seatlock.lock.held} timer.
 */
public class MicrometerLockListener implements LockListener {

    private final MeterRegistry registry;

    public MicrometerLockListener(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void onAttempt(String group) {
        registry.counter("seatlock.lock.attempts", "group", group).increment();
    }

    @Override
    public void onAcquired(String group, OverlapImpact impact) {
        registry.counter("seatlock.lock.acquired", "group", group, "impact", impact.name()).increment();
    }

    @Override
    public void onBusy(String group) {
        registry.counter("seatlock.lock.busy", "group", group).increment();
    }

    @Override
    public void onUnavailable(String group) {
        registry.counter("seatlock.lock.unavailable", "group", group).increment();
    }

    @Override
    public void onLateGrant(String group) {
        registry.counter("seatlock.lock.late.grants", "group", group).increment();
    }

    @Override
    public void onReleased(String group, Duration held) {
        registry.counter("seatlock.lock.released", "group", group).increment();
        heldTimer(group, "released").record(held);
    }

    @Override
    public void onLost(String group, Duration held) {
        registry.counter("seatlock.lock.lost", "group", group).increment();
        heldTimer(group, "lost").record(held);
    }

    @Override
    public void onRenewed(String group) {
        registry.counter("seatlock.lock.renewals", "group", group, "outcome", "renewed").increment();
    }

    @Override
    public void onRenewalFailed(String group) {
        registry.counter("seatlock.lock.renewals", "group", group, "outcome", "failed").increment();
    }

    @Override
    public void onFencingRejected(String resource) {
        registry.counter("seatlock.lock.fencing.rejections", "group", LockListener.groupOf(resource)).increment();
    }

    private Timer heldTimer(String group, String outcome) {
        return Timer.builder("seatlock.lock.held").tag("group", group).tag("outcome", outcome)
                .publishPercentiles(0.5, 0.99).register(registry);
    }
}
