package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.spi.LockListeners;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Lock metrics, tagged by lock group (the name up to its first ':'): {@code seatlock.lock.attempts},
 * {@code .acquired}, {@code .busy}, {@code .decided} (turned away by a decided marker), {@code .unavailable}, {@code .late.grants} (granted too late to be valid), {@code .released}, {@code .lost}
 * (expired while held), {@code .renewals{outcome}}, {@code .fencing.rejections} and the
 * {@code seatlock.lock.held} timer.
 */
class MicrometerLockListener implements LockListener {

    private final MeterRegistry registry;
    /** The meters every acquire touches (a sold seat's crowd: decided), looked up once per group, not per call. */
    private final ConcurrentMap<String, GroupMeters> hot = new ConcurrentHashMap<>();

    private record GroupMeters(Counter attempts, Counter busy, Counter decided, Map<OverlapImpact, Counter> acquired,
                               Counter released, Timer heldReleased) {
    }

    MicrometerLockListener(MeterRegistry registry) {
        this.registry = registry;
    }

    private GroupMeters meters(String group) {
        return hot.computeIfAbsent(group, g -> {
            Map<OverlapImpact, Counter> acquired = new EnumMap<>(OverlapImpact.class);
            for (OverlapImpact impact : OverlapImpact.values()) {
                acquired.put(impact, registry.counter("seatlock.lock.acquired", "group", g, "impact", impact.name()));
            }
            return new GroupMeters(registry.counter("seatlock.lock.attempts", "group", g),
                    registry.counter("seatlock.lock.busy", "group", g),
                    registry.counter("seatlock.lock.decided", "group", g), acquired,
                    registry.counter("seatlock.lock.released", "group", g), heldTimer(g, "released"));
        });
    }

    @Override
    public void onAttempt(String group) {
        meters(group).attempts().increment();
    }

    @Override
    public void onAcquired(String group, OverlapImpact impact) {
        meters(group).acquired().get(impact).increment();
    }

    @Override
    public void onBusy(String group) {
        meters(group).busy().increment();
    }

    @Override
    public void onDecided(String group) {
        meters(group).decided().increment();
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
        GroupMeters meters = meters(group);
        meters.released().increment();
        meters.heldReleased().record(held);
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
        registry.counter("seatlock.lock.fencing.rejections", "group", LockListeners.groupOf(resource)).increment();
    }

    private Timer heldTimer(String group, String outcome) {
        return Timer.builder("seatlock.lock.held").tag("group", group).tag("outcome", outcome)
                .publishPercentiles(0.5, 0.99).register(registry);
    }
}
