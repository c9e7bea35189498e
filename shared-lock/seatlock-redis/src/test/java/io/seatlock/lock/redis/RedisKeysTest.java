package io.seatlock.lock.redis;

import io.lettuce.core.ScriptOutputType;
import io.seatlock.localservers.LocalServers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The release scripts work out a lock's release channel from its key in Lua; it must be the channel the Java
 * side of the layout names, which waiters subscribe to. Run by Redis itself (EVAL, which writes nothing).
 */
class RedisKeysTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "seatlock:|14C",
            "''|14C",
            "app:lock:|seat:lock:1",
            "lock:|lock:",
            "x|Zürich-座 12",
    })
    void theScriptsNameTheReleaseChannelAsTheLayoutDoes(String prefix, String name) {
        RedisKeys keys = new RedisKeys(prefix);

        String channel = LocalServers.redis().with(r -> r.eval(RedisKeys.RELEASED_CHANNEL_LUA
                + "return released_channel(KEYS[1])", ScriptOutputType.VALUE, keys.lock(name)));

        assertThat(channel).isEqualTo(keys.released(name)).isEqualTo(prefix + "released:{" + name + "}");
    }
}
