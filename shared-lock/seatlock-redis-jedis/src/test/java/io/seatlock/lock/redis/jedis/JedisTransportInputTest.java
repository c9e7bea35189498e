package io.seatlock.lock.redis.jedis;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;

import java.net.URI;
import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A command timeout that bounds nothing is refused by every factory, before a pool is made. */
class JedisTransportInputTest {

    private static final HostAndPort NOWHERE = new HostAndPort("127.0.0.1", 1);

    @ParameterizedTest
    @ValueSource(strings = {"PT0S", "PT-1S"})
    void aCommandTimeoutThatIsNotPositiveIsRefused(String timeout) {
        Duration bad = Duration.parse(timeout);
        String told = "the command timeout must be positive, was " + bad;
        DefaultJedisClientConfig config = DefaultJedisClientConfig.builder().build();
        assertThatThrownBy(() -> JedisTransport.standalone(URI.create("redis://127.0.0.1:1"), bad)).hasMessage(told);
        assertThatThrownBy(() -> JedisTransport.sentinel("mymaster", Set.of(NOWHERE), config, config, bad)).hasMessage(told);
        assertThatThrownBy(() -> JedisTransport.cluster(Set.of(NOWHERE), config, bad)).hasMessage(told);
    }
}
