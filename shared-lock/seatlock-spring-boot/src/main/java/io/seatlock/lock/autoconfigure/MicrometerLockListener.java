package io.seatlock.lock.autoconfigure;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.micrometer.LockGroups;
import io.seatlock.lock.micrometer.LockObservations;
import io.seatlock.lock.spi.LockListeners;

import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Lock metrics, tagged {@code seatlock.lock.group} within the {@link LockGroups} cap the observations share, with the
 * observations' key names: {@code seatlock.lock.attempts}, {@code .acquired{seatlock.lock.impact}}, {@code .busy},
 * {@code .decided} (turned away by a decided marker), {@code .unavailable}, {@code .late.grants} (granted too late to
 * be valid), {@code .released}, {@code .lost{seatlock.lock.impact}} (expired while held),
 * {@code .renewals{seatlock.outcome}}, {@code .fencing.rejections} and the {@code seatlock.lock.held{seatlock.outcome}}
 * timer.
 *
 * <p>Every series of a group exists, at zero, from the group's first event on (its first attempt, for a lock this
 * replica takes), and from start-up for the groups the application declares (its leader elections and the migration
 * gate): Prometheus' {@code increase()} sees a series only once it exists, so an alert on a counter created by its
 * own first increment would miss that first, and often only, event.
 */
class MicrometerLockListener implements LockListener {

    /** The tags, named as the observations' keys are: one label name per concept in a scrape. */
    private static final String GROUP = LockObservations.GROUP;
    private static final String IMPACT = LockObservations.IMPACT;
    private static final String OUTCOME = LockObservations.OUTCOME;

    private final MeterRegistry registry;
    private final LockGroups groups;
    /** Every meter of a group, made at once on the group's first event; looked up once per call. */
    private final ConcurrentMap<String, GroupMeters> meters = new ConcurrentHashMap<>();

    private record GroupMeters(Counter attempts, Counter busy, Counter decided, Counter unavailable, Counter lateGrants,
                               Map<OverlapImpact, Counter> acquired, Counter released, Map<OverlapImpact, Counter> lost,
                               Counter renewed, Counter renewalFailed, Counter fencingRejections, Timer heldReleased,
                               Timer heldLost) {
    }

    /**
     * @param registry where the meters go
     * @param groups   the group cap, shared with the observations
     * @param declared groups whose series exist from now on (e.g. {@code leader}, {@code migration})
     */
    MicrometerLockListener(MeterRegistry registry, LockGroups groups, Collection<String> declared) {
        this.registry = registry;
        this.groups = groups;
        declared.forEach(this::meters);
    }

    private GroupMeters meters(String group) {
        GroupMeters known = meters.get(group);
        return known != null ? known : meters.computeIfAbsent(groups.tagOf(group), this::register);
    }

    private GroupMeters register(String g) {
        return new GroupMeters(counter("seatlock.lock.attempts", g), counter("seatlock.lock.busy", g),
                counter("seatlock.lock.decided", g), counter("seatlock.lock.unavailable", g),
                counter("seatlock.lock.late.grants", g), byImpact("seatlock.lock.acquired", g),
                counter("seatlock.lock.released", g), byImpact("seatlock.lock.lost", g),
                registry.counter("seatlock.lock.renewals", GROUP, g, OUTCOME, "renewed"),
                registry.counter("seatlock.lock.renewals", GROUP, g, OUTCOME, "failed"),
                counter("seatlock.lock.fencing.rejections", g), held(g, "released"), held(g, "lost"));
    }

    private Counter counter(String name, String group) {
        return registry.counter(name, GROUP, group);
    }

    private Map<OverlapImpact, Counter> byImpact(String name, String group) {
        Map<OverlapImpact, Counter> counters = new EnumMap<>(OverlapImpact.class);
        for (OverlapImpact impact : OverlapImpact.values()) {
            counters.put(impact, registry.counter(name, GROUP, group, IMPACT, impact.name()));
        }
        return counters;
    }

    private Timer held(String group, String outcome) {
        // its histogram buckets are SeatlockMetricsAutoConfiguration's, as every timer of the lock's
        return Timer.builder("seatlock.lock.held").tag(GROUP, group).tag(OUTCOME, outcome).register(registry);
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
        meters(group).unavailable().increment();
    }

    @Override
    public void onLateGrant(String group) {
        meters(group).lateGrants().increment();
    }

    @Override
    public void onReleased(String group, Duration held) {
        GroupMeters tagged = meters(group);
        tagged.released().increment();
        tagged.heldReleased().record(held);
    }

    @Override
    public void onLost(String group, OverlapImpact impact, Duration held) {
        GroupMeters tagged = meters(group);
        tagged.lost().get(impact).increment();
        tagged.heldLost().record(held);
    }

    @Override
    public void onRenewed(String group) {
        meters(group).renewed().increment();
    }

    @Override
    public void onRenewalFailed(String group) {
        meters(group).renewalFailed().increment();
    }

    @Override
    public void onFencingRejected(String resource) {
        meters(LockListeners.groupOf(resource)).fencingRejections().increment();
    }
}
