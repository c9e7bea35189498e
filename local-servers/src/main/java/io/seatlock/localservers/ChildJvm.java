package io.seatlock.localservers;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Spring Boot app started as a child JVM on this test's class path, on a free port, that a test can
 * really pause ({@code SIGSTOP}) and resume ({@code SIGCONT}) the way a GC pause or VM stall would.
 */
public final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path log;

    /** Starts {@code mainClass} with {@code --key=value} arguments and waits until /actuator/health answers. */
    public ChildJvm(Class<?> mainClass, Map<String, String> properties) throws IOException, InterruptedException {
        this(mainClass, properties, Map.of());
    }

    /** As above, with these environment variables added to the child's. */
    public ChildJvm(Class<?> mainClass, Map<String, String> properties, Map<String, String> environment)
            throws IOException, InterruptedException {
        this(LocalServers.onFreePort(free -> new ChildJvm(mainClass, properties, environment, free)));
    }

    /** The child started on a port nothing took meanwhile. */
    private ChildJvm(ChildJvm started) {
        this.process = started.process;
        this.port = started.port;
        this.log = started.log;
    }

    private ChildJvm(Class<?> mainClass, Map<String, String> properties, Map<String, String> environment, int port)
            throws IOException, InterruptedException {
        this.port = port;
        log = Files.createTempFile("child-jvm", ".log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m"));
        // compiled as its parent is (the build gives test JVMs the quick compiler alone: they start faster)
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(argument -> argument.startsWith("-XX:TieredStopAtLevel=")).forEach(command::add);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName(), "--server.port=" + port));
        properties.forEach((k, v) -> command.add("--" + k + "=" + v));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        process = builder.start();
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240); // a busy machine starts a JVM slowly
        while (!healthAnswers(http)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                String output = Files.readString(log);
                close();
                throw new IllegalStateException(mainClass.getSimpleName() + " child did not start:\n"
                        + output.substring(Math.max(0, output.length() - 4000)));
            }
            Thread.sleep(250);
        }
    }

    private boolean healthAnswers(HttpClient http) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() < 500;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public int port() {
        return port;
    }

    /**
     * What the child has written so far, standard output and error together.
     *
     * @return its log
     */
    public String output() throws IOException {
        return Files.readString(log);
    }

    public void pause() {
        signal("STOP");
    }

    public void resume() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            int exit = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " exited " + exit);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Asks the child to stop (SIGTERM, as a process manager or Maven's run goal does); returns its exit code. */
    public int terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("child " + process.pid() + " still running 60 s after SIGTERM");
        }
        return process.exitValue();
    }

    @Override
    public void close() throws IOException {
        if (process.isAlive()) {
            resume();
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        Files.deleteIfExists(log);
    }
}
