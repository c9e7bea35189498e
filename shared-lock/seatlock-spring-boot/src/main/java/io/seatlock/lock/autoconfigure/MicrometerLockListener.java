package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.spi.LockListeners;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Lock metrics, tagged by lock group (the name up to its first ':'; at most {@value #MAX_GROUPS} groups, then
 * {@value #OTHER_GROUPS}): {@code seatlock.lock.attempts},
 * {@code .acquired}, {@code .busy}, {@code .decided} (turned away by a decided marker), {@code .unavailable}, {@code .late.grants} (granted too late to be valid), {@code .released}, {@code .lost}
 * (expired while held), {@code .renewals{outcome}}, {@code .fencing.rejections} and the
 * {@code seatlock.lock.held} timer.
 */
class MicrometerLockListener implements LockListener {

    /**
     * The most groups tagged: a name without a ':' is a group of its own, so per-item names of that kind ("order-42")
     * would make a meter per item, for ever. As Spring Boot's cap on HTTP URI tags, 100.
     */
    static final int MAX_GROUPS = 100;
    /** The group the meters of any further group go to. */
    static final String OTHER_GROUPS = "other";
    private static final Logger log = LoggerFactory.getLogger(MicrometerLockListener.class);

    private final MeterRegistry registry;
    private final Set<String> groups = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean warnedOfTooManyGroups = new AtomicBoolean();
    /** The meters every acquire touches (a sold seat's crowd: decided), looked up once per group, not per call. */
    private final ConcurrentMap<String, GroupMeters> hot = new ConcurrentHashMap<>();

    private record GroupMeters(Counter attempts, Counter busy, Counter decided, Map<OverlapImpact, Counter> acquired,
                               Counter released, Timer heldReleased) {
    }

    MicrometerLockListener(MeterRegistry registry) {
        this.registry = registry;
    }

    /** {@code group}, or {@link #OTHER_GROUPS} once {@link #MAX_GROUPS} others have been tagged. */
    private String tag(String group) {
        if (groups.contains(group)) {
            return group;
        }
        if (groups.size() < MAX_GROUPS) { // once full, a further group's every call takes no monitor
            synchronized (groups) {
                if (groups.size() < MAX_GROUPS) {
                    groups.add(group);
                    return group;
                }
            }
        }
        if (warnedOfTooManyGroups.compareAndSet(false, true)) {
            log.warn("lock metrics have {} groups, the most they tag; the metrics of further groups ('{}' first) are "
                    + "tagged group={}. A group is a lock name up to its first ':': name per-item locks <group>:<item>, "
                    + "as seat:14C", MAX_GROUPS, group, OTHER_GROUPS);
        }
        return OTHER_GROUPS;
    }

    private GroupMeters meters(String group) {
        GroupMeters known = hot.get(group);
        return known != null ? known : hot.computeIfAbsent(tag(group), g -> {
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
        registry.counter("seatlock.lock.unavailable", "group", tag(group)).increment();
    }

    @Override
    public void onLateGrant(String group) {
        registry.counter("seatlock.lock.late.grants", "group", tag(group)).increment();
    }

    @Override
    public void onReleased(String group, Duration held) {
        GroupMeters meters = meters(group);
        meters.released().increment();
        meters.heldReleased().record(held);
    }

    @Override
    public void onLost(String group, Duration held) {
        String tagged = tag(group);
        registry.counter("seatlock.lock.lost", "group", tagged).increment();
        heldTimer(tagged, "lost").record(held);
    }

    @Override
    public void onRenewed(String group) {
        registry.counter("seatlock.lock.renewals", "group", tag(group), "outcome", "renewed").increment();
    }

    @Override
    public void onRenewalFailed(String group) {
        registry.counter("seatlock.lock.renewals", "group", tag(group), "outcome", "failed").increment();
    }

    @Override
    public void onFencingRejected(String resource) {
        registry.counter("seatlock.lock.fencing.rejections", "group", tag(LockListeners.groupOf(resource))).increment();
    }

    private Timer heldTimer(String group, String outcome) {
        return Timer.builder("seatlock.lock.held").tag("group", group).tag("outcome", outcome)
                .publishPercentiles(0.5, 0.99).register(registry);
    }
}
