package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A command timeout that bounds nothing is refused by every factory, before a client is made. */
class LettuceTransportInputTest {

    private static final RedisURI NOWHERE = RedisURI.create("redis://127.0.0.1:1");

    @ParameterizedTest
    @ValueSource(strings = {"PT0S", "PT-1S"})
    void aCommandTimeoutThatIsNotPositiveIsRefused(String timeout) {
        Duration bad = Duration.parse(timeout);
        String told = "the command timeout must be positive, was " + bad;
        assertThatThrownBy(() -> LettuceTransport.standalone(NOWHERE, bad)).hasMessage(told);
        assertThatThrownBy(() -> LettuceTransport.cluster(List.of(NOWHERE), bad)).hasMessage(told);
        assertThatThrownBy(() -> LettuceTransport.standalone(NOWHERE, null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
