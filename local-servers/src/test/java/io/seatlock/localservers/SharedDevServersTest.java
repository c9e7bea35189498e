package io.seatlock.localservers;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GH-21 item 11: two development runs share the embedded servers the first one started; Ctrl-C in the first
 * run's terminal (SIGINT to its whole process group, as a terminal sends it) must leave them to the second,
 * and they stop once the last run has gone. Each run here is a JVM in a session of its own, like a command
 * typed into its own terminal, on ports of this test's own.
 */
class SharedDevServersTest {

    /** A development run reduced to what matters here: join the shared servers, then live until stopped. */
    public static final class DevRun {
        public static void main(String[] args) throws Exception {
            SharedDevServers.join();
            Files.writeString(Path.of(args[0]), "joined");
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    private record Run(Process process, Path joined) {
        static Run start(int postgresPort, int redisPort) throws IOException {
            Path joined = Files.createTempFile("dev-run", ".joined");
            Files.delete(joined);
            // env --default-signal: a build started in the background (nohup, &) ignores SIGINT, and a JVM that
            // inherits that never hears Ctrl-C; a terminal's command does not ignore it
            List<String> command = new ArrayList<>(List.of("setsid", "env", "--default-signal=INT",
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                    "-cp", System.getProperty("java.class.path"), DevRun.class.getName(), joined.toString()));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            builder.environment().putAll(Map.of("SEATLOCK_DEV_POSTGRES_PORT", Integer.toString(postgresPort),
                    "SEATLOCK_DEV_REDIS_PORT", Integer.toString(redisPort), "SEATLOCK_DEV_LINGER_SECONDS", "1"));
            return new Run(builder.start(), joined);
        }

        void awaitJoined() {
            await().atMost(Duration.ofMinutes(3)).until(() -> Files.exists(joined) || !process.isAlive());
            assertThat(process.isAlive()).as("the run joined the servers").isTrue();
        }

        /** What Ctrl-C in the run's terminal does: SIGINT to every process of its foreground process group. */
        void ctrlC() throws Exception {
            assertThat(new ProcessBuilder("kill", "-INT", "--", "-" + process.pid()).start().waitFor()).isZero();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the run ends on Ctrl-C").isTrue();
        }

        void stop() throws IOException {
            process.destroyForcibly();
            Files.deleteIfExists(joined);
        }
    }

    @Test
    void ctrlCInTheFirstRunsTerminalLeavesTheServersToTheOtherRunsAndTheLastRunStopsThem() throws Exception {
        int postgresPort = LocalServers.freePort();
        int redisPort = LocalServers.freePort();
        PostgresServer postgres = new PostgresServer("shared", "127.0.0.1", postgresPort, "postgres", "");
        RedisServer redis = new RedisServer("shared", "127.0.0.1", redisPort, null);
        Run first = Run.start(postgresPort, redisPort);
        Run second = null;
        try {
            first.awaitJoined();
            ProcessHandle servers = first.process().toHandle().children().findFirst().orElseThrow();
            second = Run.start(postgresPort, redisPort);
            second.awaitJoined();
            assertThat(first.process().toHandle().children().count()).as("one set of servers").isEqualTo(1);

            first.ctrlC();
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(30))
                    .until(() -> LocalServers.answers(postgres) && LocalServers.answers(redis));
            assertThat(servers.isAlive()).isTrue();
            assertThat(second.process().isAlive()).isTrue();

            second.ctrlC();
            await().atMost(Duration.ofSeconds(60)).until(() -> !servers.isAlive());
            assertThat(LocalServers.answers(postgres)).as("PostgreSQL stopped with the last run").isFalse();
            assertThat(LocalServers.answers(redis)).as("Redis stopped with the last run").isFalse();
        } finally {
            first.stop();
            if (second != null) {
                second.stop();
            }
            deleteHome(home(postgresPort, redisPort));
        }
    }

    private static void deleteHome(Path home) throws IOException {
        try (Stream<Path> files = home != null && Files.exists(home) ? Files.walk(home) : Stream.empty()) {
            files.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
        }
    }

    /**
     * Another PostgreSQL on the development port: the run fails at once, saying so, instead of taking that server for
     * the shared one (Zonky waits until something answers on the port and never reads pg_ctl's exit code).
     */
    @Test
    void aRunWhosePostgresPortAnotherServerHasFailsAndSaysSo() throws Exception {
        int redisPort = LocalServers.freePort();
        Run run = null;
        Path home = null;
        try (EmbeddedPostgres other = LocalServers.onFreePort(LocalServers::embeddedPostgresOn)) {
            int postgresPort = other.getPort();
            home = home(postgresPort, redisPort);
            run = Run.start(postgresPort, redisPort);
            assertThat(run.process().waitFor(2, TimeUnit.MINUTES)).as("the run ends").isTrue();
            assertThat(run.process().exitValue()).as("and fails").isNotZero();
            assertThat(run.joined()).as("having joined no servers").doesNotExist();
            assertThat(Files.readString(home.resolve("servers.log"))).contains("already in use by another server");
            assertThat(LocalServers.answers(new RedisServer("shared", "127.0.0.1", redisPort, null)))
                    .as("no Redis left behind").isFalse();
        } finally {
            if (run != null) {
                run.stop();
            }
            deleteHome(home);
        }
    }

    private static Path home(int postgresPort, int redisPort) {
        return Path.of(System.getProperty("java.io.tmpdir"), "seatlock-dev-servers-" + postgresPort + "-" + redisPort);
    }
}
