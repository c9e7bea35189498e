package io.seatlock.lock.autoconfigure;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seatlock.lock.OverlapImpact;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Per-item lock names without a group of their own must not make a meter per item. */
class MicrometerLockListenerTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MicrometerLockListener metrics = new MicrometerLockListener(registry);

    @Test
    void namesWithoutAGroupStopMakingMetersAtTheCapAndAreCountedAsOther() {
        int names = MicrometerLockListener.MAX_GROUPS + 50;
        for (int i = 0; i < names; i++) {
            String group = "order-" + i; // a name with no ':' is a group of its own
            metrics.onAttempt(group);
            metrics.onAcquired(group, OverlapImpact.WASTED_WORK);
            metrics.onReleased(group, Duration.ofMillis(5));
            metrics.onLost(group, Duration.ofMillis(5));
            metrics.onRenewed(group);
            metrics.onUnavailable(group);
        }
        for (String meter : new String[] {"seatlock.lock.attempts", "seatlock.lock.released", "seatlock.lock.lost",
                "seatlock.lock.renewals", "seatlock.lock.unavailable"}) {
            assertThat(registry.find(meter).counters()).as(meter).hasSize(MicrometerLockListener.MAX_GROUPS + 1);
        }
        assertThat(registry.find("seatlock.lock.held").timers()).hasSize(2 * (MicrometerLockListener.MAX_GROUPS + 1));
        assertThat(registry.get("seatlock.lock.attempts").tag("group", "order-0").counter().count()).isEqualTo(1);
        assertThat(registry.get("seatlock.lock.attempts").tag("group", MicrometerLockListener.OTHER_GROUPS).counter()
                .count()).as("every attempt is still counted").isEqualTo(50);
        assertThat(registry.get("seatlock.lock.acquired").tag("group", MicrometerLockListener.OTHER_GROUPS)
                .tag("impact", "WASTED_WORK").counter().count()).isEqualTo(50);

        metrics.onAttempt("order-0");
        assertThat(registry.get("seatlock.lock.attempts").tag("group", "order-0").counter().count())
                .as("a group tagged before the cap keeps its own meters").isEqualTo(2);
    }
}
