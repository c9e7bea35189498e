package io.seatlock.bench;

import io.seatlock.localservers.LocalServers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Where a result file came from, written by the run itself at its top: the commit, the date, the CPU and its cores,
 * the JDK, the Redis and PostgreSQL versions the run talked to, and the command. A figure whose provenance is not
 * known cannot be compared with another.
 */
final class Provenance {

    private Provenance() {
    }

    static String header(String args) {
        return "<!-- written by the benchmark run itself -->\n"
                + "| commit | date | CPU | cores | JDK | Redis | PostgreSQL | command |\n|---|---|---|---|---|---|---|---|\n"
                + "| " + String.join(" | ", commit(), Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), cpu(),
                Integer.toString(Runtime.getRuntime().availableProcessors()),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"), redis(), postgres(),
                "`./mvnw -q -Pbench -pl bench exec:exec -Dbench.args=" + args + "`") + " |\n\n";
    }

    /**
     * The commit, with {@code +changes} where the work tree differs from it; the result files themselves, which the
     * run writes as it goes, do not count.
     */
    private static String commit() {
        String head = git("rev-parse", "--short=12", "HEAD");
        return head.isEmpty() ? "unknown"
                : head + (git("status", "--porcelain", "--", ":(top)", ":(top,exclude)bench/results").isEmpty() ? "" : "+changes");
    }

    private static String git(String... arguments) {
        try {
            List<String> command = new ArrayList<>(List.of("git"));
            command.addAll(List.of(arguments));
            Process git = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return git.waitFor(10, TimeUnit.SECONDS) && git.exitValue() == 0 ? out : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static String cpu() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).strip()).findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String redis() {
        try {
            return LocalServers.redis().with(r -> r.info("server")).lines().filter(l -> l.startsWith("redis_version:"))
                    .map(l -> l.substring("redis_version:".length()).strip()).findFirst().orElse("unknown");
        } catch (RuntimeException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private static String postgres() {
        try (Connection c = LocalServers.postgres().connect("postgres"); Statement s = c.createStatement();
             ResultSet version = s.executeQuery("SHOW server_version")) {
            return version.next() ? version.getString(1) : "unknown";
        } catch (Exception e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
