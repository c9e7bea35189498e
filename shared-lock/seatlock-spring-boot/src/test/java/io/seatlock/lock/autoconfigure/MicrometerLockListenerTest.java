package io.seatlock.lock.autoconfigure;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.micrometer.LockGroups;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every series an alert reads exists at zero before its event (from a group's first event, from start-up for the
 * groups the application declares), a loss says what overlap it risks, and per-item lock names without a group of
 * their own stop making meters at the cap.
 */
class MicrometerLockListenerTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MicrometerLockListener metrics = new MicrometerLockListener(registry, new LockGroups(), List.of());

    /** Each counter of a group and its labels, as an alert rule names them. */
    private static final List<String[]> GROUP_COUNTERS = List.of(
            new String[] {"seatlock.lock.attempts"}, new String[] {"seatlock.lock.busy"},
            new String[] {"seatlock.lock.decided"}, new String[] {"seatlock.lock.unavailable"},
            new String[] {"seatlock.lock.late.grants"}, new String[] {"seatlock.lock.released"},
            new String[] {"seatlock.lock.fencing.rejections"},
            new String[] {"seatlock.lock.acquired", "seatlock.lock.impact", "BROKEN_PROMISE"},
            new String[] {"seatlock.lock.acquired", "seatlock.lock.impact", "WASTED_WORK"},
            new String[] {"seatlock.lock.lost", "seatlock.lock.impact", "BROKEN_PROMISE"},
            new String[] {"seatlock.lock.lost", "seatlock.lock.impact", "WASTED_WORK"},
            new String[] {"seatlock.lock.renewals", "seatlock.outcome", "renewed"},
            new String[] {"seatlock.lock.renewals", "seatlock.outcome", "failed"});

    @Test
    void aGroupsFirstAttemptMakesEverySeriesOfItAtZeroBeforeItsOtherEvents() {
        metrics.onAttempt("seat");

        for (String[] counter : GROUP_COUNTERS) {
            double expected = counter[0].equals("seatlock.lock.attempts") ? 1 : 0;
            var search = registry.find(counter[0]).tag("seatlock.lock.group", "seat");
            if (counter.length == 3) {
                search = search.tag(counter[1], counter[2]);
            }
            assertThat(search.counter()).as(String.join(" ", counter)).isNotNull();
            assertThat(search.counter().count()).as(String.join(" ", counter)).isEqualTo(expected);
        }
        assertThat(registry.find("seatlock.lock.held").tag("seatlock.lock.group", "seat").timers()).hasSize(2)
                .allSatisfy(timer -> assertThat(timer.count()).isZero());
    }

    @Test
    void theGroupsTheApplicationDeclaresHaveTheirSeriesFromStartUp() {
        SimpleMeterRegistry atStart = new SimpleMeterRegistry();
        new MicrometerLockListener(atStart, new LockGroups(), List.of("leader", "migration"));

        for (String group : List.of("leader", "migration")) {
            assertThat(atStart.find("seatlock.lock.lost").tag("seatlock.lock.group", group).counters()).hasSize(2)
                    .allSatisfy(lost -> assertThat(lost.count()).isZero());
            assertThat(atStart.find("seatlock.lock.renewals").tag("seatlock.lock.group", group).tag("seatlock.outcome", "failed").counter())
                    .isNotNull();
        }
    }

    @Test
    void aLossIsCountedWithTheOverlapImpactOfItsLease() {
        metrics.onAttempt("payment");
        metrics.onLost("payment", OverlapImpact.BROKEN_PROMISE, Duration.ofSeconds(3));

        assertThat(registry.get("seatlock.lock.lost").tag("seatlock.lock.group", "payment").tag("seatlock.lock.impact", "BROKEN_PROMISE").counter()
                .count()).isEqualTo(1);
        assertThat(registry.get("seatlock.lock.lost").tag("seatlock.lock.group", "payment").tag("seatlock.lock.impact", "WASTED_WORK").counter()
                .count()).isZero();
        assertThat(registry.get("seatlock.lock.held").tag("seatlock.lock.group", "payment").tag("seatlock.outcome", "lost").timer().count())
                .isEqualTo(1);
    }

    @Test
    void namesWithoutAGroupStopMakingMetersAtTheCapAndAreCountedAsOther() {
        int names = LockGroups.DEFAULT_MAX + 50;
        for (int i = 0; i < names; i++) {
            String group = "order-" + i; // a name with no ':' is a group of its own
            metrics.onAttempt(group);
            metrics.onAcquired(group, OverlapImpact.WASTED_WORK);
            metrics.onReleased(group, Duration.ofMillis(5));
            metrics.onLost(group, OverlapImpact.WASTED_WORK, Duration.ofMillis(5));
            metrics.onRenewed(group);
            metrics.onUnavailable(group);
        }
        int tags = LockGroups.DEFAULT_MAX + 1;
        for (String meter : new String[] {"seatlock.lock.attempts", "seatlock.lock.released", "seatlock.lock.unavailable"}) {
            assertThat(registry.find(meter).counters()).as(meter).hasSize(tags);
        }
        assertThat(registry.find("seatlock.lock.lost").counters()).hasSize(2 * tags);
        assertThat(registry.find("seatlock.lock.renewals").counters()).hasSize(2 * tags);
        assertThat(registry.find("seatlock.lock.held").timers()).hasSize(2 * tags);
        assertThat(registry.getMeters().stream().map(Meter::getId).map(id -> id.getTag("seatlock.lock.group")).distinct().count())
                .as("groups tagged, over every meter").isEqualTo(tags);
        assertThat(registry.get("seatlock.lock.attempts").tag("seatlock.lock.group", "order-0").counter().count()).isEqualTo(1);
        assertThat(registry.get("seatlock.lock.attempts").tag("seatlock.lock.group", LockGroups.OVERFLOW).counter().count())
                .as("every attempt is still counted").isEqualTo(50);
        assertThat(registry.get("seatlock.lock.acquired").tag("seatlock.lock.group", LockGroups.OVERFLOW).tag("seatlock.lock.impact", "WASTED_WORK")
                .counter().count()).isEqualTo(50);

        metrics.onAttempt("order-0");
        assertThat(registry.get("seatlock.lock.attempts").tag("seatlock.lock.group", "order-0").counter().count())
                .as("a group tagged before the cap keeps its own meters").isEqualTo(2);
    }
}
