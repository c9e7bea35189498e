package example;

import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A rolling deploy's cold start: three replicas of the example application start as processes of their own at the same
 * moment, on one empty database, while every core of the machine is kept busy, in the pipeline's migrate-only mode.
 * Round after round, every replica passes through the gate (none falls back to Flyway's own lock), exactly one runs the
 * migrations, and the other two log who holds the gate and wait for it. The migrating replica holds the gate until both
 * others have said so (its last migration waits for the test's go on a socket), so a replica that came late cannot
 * pass unseen.
 */
class ExampleBusyStartTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ExampleBusyStartTest");

    private static final int ROUNDS = 3;
    private static final Pattern PASSED = Pattern.compile("migration gate passed: (\\d+) migration\\(s\\) executed here");
    private static final Pattern CONNECTED = Pattern.compile("seatlock lock connected to Redis \\(.*\\) in (\\d+) ms");

    @Test
    void threeReplicasStartingTogetherOnABusyMachineAllPassTheGateAndOneMigrates() throws Exception {
        AtomicBoolean busy = new AtomicBoolean(true);
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            Thread burner = new Thread(() -> {
                while (busy.get()) {
                    Thread.onSpinWait(); // a core kept busy: the load a second build beside this one makes
                }
            }, "cpu-burner-" + i);
            burner.setDaemon(true);
            burner.start();
        }
        List<Long> firstConnects = new ArrayList<>();
        try {
            for (int round = 1; round <= ROUNDS; round++) {
                firstConnects.addAll(round(round));
            }
        } finally {
            busy.set(false);
        }
        System.out.println("busy start: " + ROUNDS + " rounds of 3 replicas, no fallback; first connect ms " + firstConnects);
    }

    /** One deploy: three replicas at once on a schema of the round's own; returns each one's first-connect time. */
    private List<Long> round(int round) throws Exception {
        String schema = "busy_start_" + round;
        Map<String, Process> replicas = new LinkedHashMap<>();
        Map<String, Path> logs = new LinkedHashMap<>();
        try (ServerSocket release = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Socket> waitingForGo = CompletableFuture.supplyAsync(() -> {
                try {
                    release.setSoTimeout(180_000);
                    return release.accept(); // the migrating replica's last migration, waiting for the go
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            for (int i = 1; i <= 3; i++) {
                String instance = "r" + round + "-replica-" + i;
                Path log = Files.createTempFile(instance, ".log");
                logs.put(instance, log);
                replicas.put(instance, start(instance, schema, round, release.getLocalPort(), log));
            }
            // the migrating replica holds the gate until both others have said whom they wait for
            await("two replicas waiting at the gate").atMost(Duration.ofMinutes(3))
                    .until(() -> waiting(logs) >= 2 || replicas.values().stream().noneMatch(Process::isAlive));
            try (Socket go = waitingForGo.get(3, TimeUnit.MINUTES)) {
                go.getOutputStream().write('!');
            }
            for (Process replica : replicas.values()) {
                assertThat(replica.waitFor(3, TimeUnit.MINUTES)).as("the replica ends").isTrue();
            }

            Map<String, String> output = new LinkedHashMap<>();
            for (Map.Entry<String, Path> log : logs.entrySet()) {
                output.put(log.getKey(), Files.readString(log.getValue()));
            }
            replicas.forEach((instance, replica) -> assertThat(replica.exitValue())
                    .as("round %d, %s exits with 0, the schema current:\n%s", round, instance, output.get(instance)).isZero());
            assertThat(output.values()).as("round %d: no replica fell back", round)
                    .noneMatch(text -> text.contains("migration gate fell back"));
            List<String> migrators = output.entrySet().stream().filter(e -> executed(e.getValue()) > 0)
                    .map(Map.Entry::getKey).toList();
            assertThat(migrators).as("round %d: exactly one replica migrated", round).hasSize(1);
            String holder = migrators.get(0);
            output.forEach((instance, text) -> {
                if (!instance.equals(holder)) {
                    assertThat(executed(text)).as("round %d, %s ran nothing", round, instance).isZero();
                    assertThat(text).as("round %d, %s said whom it waited for", round, instance)
                            .contains("migration gate held by " + holder);
                }
            });
            JdbcTemplate db = new JdbcTemplate(servers.dataSource());
            assertThat(db.queryForObject("SELECT count(*) FROM " + schema + ".flyway_schema_history WHERE NOT success",
                    Long.class)).isZero();
            assertThat(db.queryForObject("SELECT count(*) - count(DISTINCT script) FROM " + schema
                    + ".flyway_schema_history", Long.class)).as("each migration applied once").isZero();
            return output.values().stream().map(text -> {
                Matcher connected = CONNECTED.matcher(text);
                assertThat(connected.find()).as("the lock connected while starting:\n%s", text).isTrue();
                return Long.parseLong(connected.group(1));
            }).toList();
        } finally {
            replicas.values().forEach(Process::destroyForcibly);
            for (Path log : logs.values()) {
                Files.deleteIfExists(log);
            }
        }
    }

    private static Process start(String instance, String schema, int round, int releasePort, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-Dhold.port=" + releasePort));
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(argument -> argument.startsWith("-XX:TieredStopAtLevel=")).forEach(command::add);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ExampleMigrateOnly.class.getName()));
        Map<String, String> p = new LinkedHashMap<>(servers.springProperties());
        p.put("seatlock.lock.key-prefix", servers.keyPrefix() + "r" + round + ":");
        p.put("seatlock.lock.instance-id", instance);
        p.put("seatlock.migration.only", "true");
        p.put("spring.flyway.default-schema", schema);
        p.put("spring.flyway.schemas", schema);
        p.put("spring.flyway.locations", "classpath:db/example,classpath:db/seatlock,classpath:db/hold");
        p.put("spring.main.web-application-type", "none");
        p.put("spring.main.banner-mode", "off");
        p.forEach((k, v) -> command.add("--" + k + "=" + v));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static long waiting(Map<String, Path> logs) throws IOException {
        long count = 0;
        for (Path log : logs.values()) {
            if (Files.readString(log).contains("migration gate held by ")) {
                count++;
            }
        }
        return count;
    }

    private static int executed(String output) {
        Matcher passed = PASSED.matcher(output);
        return passed.find() ? Integer.parseInt(passed.group(1)) : -1;
    }
}
