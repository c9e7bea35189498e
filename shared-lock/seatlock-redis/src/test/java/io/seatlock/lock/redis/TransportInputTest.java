package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockListener;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A command timeout that bounds nothing is refused by every factory of the transport under test (standalone, Sentinel,
 * Cluster), before a client is made.
 */
class TransportInputTest {

    private static final RedisURI NOWHERE = RedisURI.create("redis://127.0.0.1:1");
    private static final RedisURI NO_SENTINEL = RedisURI.Builder.sentinel("127.0.0.1", 1, "mymaster").build();

    @ParameterizedTest
    @ValueSource(strings = {"PT0S", "PT-1S"})
    void aCommandTimeoutThatIsNotPositiveIsRefused(String timeout) {
        Duration bad = Duration.parse(timeout);
        String told = "the command timeout must be positive, was " + bad;
        RedisLockSettings settings = RedisLockSettings.defaults();
        assertThatThrownBy(() -> TestTransports.standalone(NOWHERE, bad, settings, LockListener.NOOP)).hasMessage(told);
        assertThatThrownBy(() -> TestTransports.standalone(NO_SENTINEL, bad, settings, LockListener.NOOP)).hasMessage(told);
        assertThatThrownBy(() -> TestTransports.cluster(List.of(NOWHERE), bad, settings, LockListener.NOOP)).hasMessage(told);
        assertThatThrownBy(() -> TestTransports.standalone(NOWHERE, (Duration) null, settings, LockListener.NOOP))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
