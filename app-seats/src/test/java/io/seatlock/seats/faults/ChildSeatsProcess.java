package io.seatlock.seats.faults;

import io.seatlock.seats.SeatsApplication;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
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

import static org.awaitility.Awaitility.await;

/** app-seats as a child JVM that a test can really pause with SIGSTOP and resume with SIGCONT. */
final class ChildSeatsProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path log;

    ChildSeatsProcess(Map<String, String> properties) throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        log = Files.createTempFile("child-seats", ".log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m",
                "-cp", System.getProperty("java.class.path"), SeatsApplication.class.getName(),
                "--server.port=" + port));
        properties.forEach((k, v) -> command.add("--" + k + "=" + v));
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        HttpClient http = HttpClient.newHttpClient();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).ignoreExceptions().until(() ->
                http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() < 500);
    }

    int port() {
        return port;
    }

    void pause() {
        signal("STOP");
    }

    void resume() {
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

    @Override
    public void close() throws IOException {
        resume();
        process.destroy();
        try {
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        Files.deleteIfExists(log);
    }

    File log() {
        return log.toFile();
    }
}
