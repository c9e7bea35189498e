package io.seatlock.jobs;

import io.seatlock.localservers.ChildJvm;
import io.seatlock.localservers.LocalServers;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The README's development run on a machine with nothing on PostgreSQL's and Redis' usual ports (here: ports of this
 * test's own where nothing listens) and no Docker: it probes them, starts the shared development servers, and logs
 * no ERROR and no stack trace on the way; its "page is on" line names the replica that {@code /actuator/locks} shows.
 */
class DevStartLogTest {

    @Test
    void aDevelopmentStartWithNoServersAroundLogsNoErrorAndNamesItsReplica() throws Exception {
        int devPostgres = LocalServers.freePort();
        int devRedis = LocalServers.freePort();
        Map<String, String> environment = Map.of(
                "SEATLOCK_LOCAL_POSTGRES_PORT", Integer.toString(LocalServers.freePort()),
                "SEATLOCK_LOCAL_REDIS_PORT", Integer.toString(LocalServers.freePort()),
                "SEATLOCK_DEV_POSTGRES_PORT", Integer.toString(devPostgres),
                "SEATLOCK_DEV_REDIS_PORT", Integer.toString(devRedis),
                "SEATLOCK_DEV_LINGER_SECONDS", "1");
        try (ChildJvm dev = new ChildJvm(TestJobsApplication.class, Map.of("jobs.demo.enabled", "false",
                "management.endpoints.web.exposure.include", "health,locks"), environment)) {
            await().atMost(Duration.ofMinutes(2)).until(() -> dev.output().contains("The operations page is on"));
            String instance = JsonMapper.shared().readTree(ReplicaHttp.get(dev.port(), "/actuator/locks",
                    Duration.ofSeconds(5)).body()).get("instance").asString();
            String log = dev.output();
            assertThat(log).contains("The operations page is on http://127.0.0.1:" + dev.port() + "/ as replica "
                    + instance + " (Ctrl-C stops it)");
            assertThat(log.lines()).as("a clean start:\n%s", log)
                    .noneMatch(line -> line.contains(" ERROR ") || line.startsWith("\tat ")
                            || line.contains("Exception:"));
        } finally {
            await().atMost(Duration.ofMinutes(1)).until(() -> !listening(devPostgres) && !listening(devRedis));
            deleteHome(Path.of(System.getProperty("java.io.tmpdir"), "seatlock-dev-servers-" + devPostgres + "-" + devRedis));
        }
    }

    private static boolean listening(int port) {
        try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void deleteHome(Path home) throws IOException {
        if (Files.exists(home)) {
            try (Stream<Path> files = Files.walk(home)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}
