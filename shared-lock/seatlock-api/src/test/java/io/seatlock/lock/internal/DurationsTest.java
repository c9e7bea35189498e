package io.seatlock.lock.internal;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatNoException;

/** The settings' checks of bounds and pauses, whose messages a start-up failure report shows. */
class DurationsTest {

    @Test
    void aBoundMustBePositive() {
        assertThat(Durations.requirePositive(Duration.ofMillis(1), "call timeout")).isEqualTo(Duration.ofMillis(1));
        assertThatThrownBy(() -> Durations.requirePositive(Duration.ZERO, "call timeout"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("call timeout must be positive, was PT0S");
        assertThatThrownBy(() -> Durations.requirePositive(null, "call timeout"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("call timeout must be positive, was null");
    }

    @Test
    void theLongestBackoffMayNotBeBelowTheFirst() {
        assertThatNoException().isThrownBy(() -> Durations.requireBackoff(Duration.ofMillis(10), Duration.ofMillis(10)));
        assertThatThrownBy(() -> Durations.requireBackoff(Duration.ofMillis(20), Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("max backoff PT0.01S is below min backoff PT0.02S");
        assertThatThrownBy(() -> Durations.requireBackoff(Duration.ofMillis(-1), Duration.ofMillis(10)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("min backoff must be positive");
    }
}
