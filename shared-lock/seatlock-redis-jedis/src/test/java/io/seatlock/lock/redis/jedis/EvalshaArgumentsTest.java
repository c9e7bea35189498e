package io.seatlock.lock.redis.jedis;

import io.seatlock.lock.redis.spi.RedisCommand;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.args.Rawable;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** One instance, refilled: each script's arguments exactly, none left over from a longer one before. */
class EvalshaArgumentsTest {

    @Test
    void aRefilledInstanceWritesEachScriptsArgumentsAndNothingElse() {
        EvalshaArguments arguments = new EvalshaArguments();
        RedisCommand.Script longer = new RedisCommand.Script("sha-1", "return 1", List.of("k1", "k2", "k3", "k4", "k5"),
                List.of("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"));
        RedisCommand.Script shorter = new RedisCommand.Script("sha-2", "return 2", List.of("lock:{x}"),
                List.of("tökén"));

        assertThat(written(arguments.fill(longer))).containsExactly("EVALSHA", "sha-1", "5", "k1", "k2", "k3", "k4", "k5",
                "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8");
        assertThat(written(arguments.fill(shorter))).containsExactly("EVALSHA", "sha-2", "1", "lock:{x}", "tökén");
        assertThat(arguments.size()).isEqualTo(5);
    }

    /** As Jedis' protocol writer reads a command: its size, then each argument's bytes in turn. */
    private static List<String> written(EvalshaArguments arguments) {
        List<String> written = new ArrayList<>();
        for (Rawable argument : arguments) {
            written.add(new String(argument.getRaw(), StandardCharsets.UTF_8));
        }
        assertThat(written).hasSize(arguments.size());
        return written;
    }
}
