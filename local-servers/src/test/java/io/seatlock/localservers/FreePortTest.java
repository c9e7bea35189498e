package io.seatlock.localservers;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A port found free can be taken before the server binds it, by a connection of a build running beside this one
 * (seen: a Sentinel's "Address already in use" failed a side-by-side run). The server then starts on another port.
 */
class FreePortTest {

    @Test
    void aRedisWhosePortIsTakenFirstStartsOnAnother() throws Exception {
        List<Integer> tried = new ArrayList<>();
        List<AutoCloseable> cleanup = new ArrayList<>();
        try {
            int port = LocalServers.onFreePort(free -> {
                tried.add(free);
                if (tried.size() == 1) {
                    cleanup.add(new ServerSocket(free, 50, InetAddress.getByName("127.0.0.1"))); // taken meanwhile
                }
                redis.embedded.RedisServer process = redis.embedded.RedisServer.newRedisServer().port(free)
                        .setting("bind 127.0.0.1").setting("save \"\"").setting("appendonly no").build();
                process.start();
                cleanup.add(process::stop);
                return free;
            });

            assertThat(tried).hasSize(2).doesNotHaveDuplicates();
            assertThat(port).isEqualTo(tried.get(1));
            String pong = new RedisServer("owned", "127.0.0.1", port, null).with(r -> r.ping());
            assertThat(pong).isEqualTo("PONG");
        } finally {
            for (AutoCloseable c : cleanup) {
                c.close();
            }
        }
    }

    @Test
    void anyOtherFailureIsNotTriedAgain() {
        List<Integer> tried = new ArrayList<>();

        Throwable failure = catchThrowable(() -> LocalServers.onFreePort(free -> {
            tried.add(free);
            throw new IOException("no such binary");
        }));

        assertThat(failure).hasMessage("no such binary");
        assertThat(tried).hasSize(1);
    }
}
