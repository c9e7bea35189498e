package io.seatlock.localservers;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A port found free can be taken before the server binds it, by a connection of a build running beside this one
 * (seen: a Sentinel's "Address already in use" failed a side-by-side run, on a port the system had picked). Ports are
 * now picked where connections get none, and a server whose port is taken all the same starts on another one.
 */
class FreePortTest {

    /** What a test started: closed after it, whatever it asserted. */
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void stopWhatTheTestStarted() throws Exception {
        for (AutoCloseable c : cleanup) {
            c.close();
        }
    }

    @Test
    void aRedisWhosePortIsTakenFirstStartsOnAnother() throws Exception {
        List<Integer> tried = new ArrayList<>();
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
    }

    /** Zonky alone would take the PostgreSQL it finds answering on its port for the one it started. */
    @Test
    void anEmbeddedPostgresWhosePortAnotherPostgresTookStartsOnAnother() throws Exception {
        List<Integer> tried = new ArrayList<>();
        EmbeddedPostgres started = LocalServers.onFreePort(free -> {
            tried.add(free);
            if (tried.size() == 1) { // another build's PostgreSQL took it meanwhile
                cleanup.add(LocalServers.quietEmbeddedPostgres().setPort(free).start());
            }
            return LocalServers.embeddedPostgresOn(free);
        });
        cleanup.add(started);

        assertThat(tried).hasSize(2).doesNotHaveDuplicates();
        assertThat(started.getPort()).isEqualTo(tried.get(1));
        String own = dataDirectory(new PostgresServer("own", "127.0.0.1", started.getPort(), "postgres", ""));
        String other = dataDirectory(new PostgresServer("other", "127.0.0.1", tried.get(0), "postgres", ""));
        assertThat(own).as("a server of its own").isNotEqualTo(other);
    }

    private static String dataDirectory(PostgresServer server) throws Exception {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW data_directory")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * A port from the range the system gives connections' local ports could be taken by any connection, of this build
     * or another, between the pick and the bind, or between a server's stop and its restart on it (seen with the
     * system's pick). So ports are picked below that range, with a cluster node's bus port (10,000 above) too.
     */
    @Test
    void portsArePickedBelowTheRangeTheSystemGivesConnections() throws IOException {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        assumeTrue(Files.isReadable(range), "Linux's setting");
        int ephemeralFrom = Integer.parseInt(Files.readAllLines(range).get(0).trim().split("\\s+")[0]);
        assumeTrue(ephemeralFrom > 20_000, "a range that leaves room below it");
        for (int i = 0; i < 50; i++) {
            assertThat(LocalServers.freePort()).isBetween(10_000, ephemeralFrom - 10_001);
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
