package io.seatlock.lock.redis;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An instance id is the readable part of every owner token, and a waiter marks a held lock by appending
 * {@code |waited} to its token: an id ending so would make every token look marked already, so its releases would
 * announce nothing to waiters, and {@code holder()} would name the instance without its last word. A wait that is not
 * positive is refused by name.
 */
class RedisLockSettingsTest {

    @Test
    void anInstanceIdEndingInTheWaitersMarkIsRefused() {
        assertThatThrownBy(() -> RedisLockSettings.defaults().withInstanceId("replica-1|waited"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not end in \"|waited\"");

        assertThat(RedisLockSettings.defaults().withInstanceId("replica|waited-1").instanceId())
                .as("the mark elsewhere in the id is no mark").isEqualTo("replica|waited-1");
    }

    @Test
    void aWaitThatIsNotPositiveIsRefusedByName() {
        RedisLockSettings d = RedisLockSettings.defaults();
        Duration zero = Duration.ZERO;
        assertThatThrownBy(() -> new RedisLockSettings(d.keyPrefix(), d.instanceId(), d.clockDriftFactor(),
                d.minSafetyMargin(), zero, d.maxBackoff(), 0, d.replicaWait()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("min backoff must be positive, was PT0S");
        assertThatThrownBy(() -> new RedisLockSettings(d.keyPrefix(), d.instanceId(), d.clockDriftFactor(),
                d.minSafetyMargin(), d.minBackoff(), null, 0, d.replicaWait()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("max backoff must be positive, was null");
        assertThatThrownBy(() -> d.withReplicas(1, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("replica wait must be positive, was PT-0.001S");
    }
}
