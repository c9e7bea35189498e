package io.seatlock.localservers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/** What an application's runnable jar carries: for checks that test-only libraries never reach production. */
public final class ExecJar {

    private ExecJar() {
    }

    /** Libraries that must never reach a runnable jar: the test kit, the development servers, test frameworks. */
    private static final List<String> TEST_ONLY = List.of("seatlock-test-", "local-servers-", "junit-", "assertj-",
            "awaitility-", "embedded-", "testcontainers");

    /**
     * Fails unless the runnable jar under {@code target} carries the library's starter and Redis lock and no
     * test-only library.
     */
    public static void assertProductionOnly(Path target) {
        List<String> libraries = libraries(target);
        for (String needed : List.of("seatlock-spring-boot-starter-", "seatlock-redis-")) {
            if (libraries.stream().noneMatch(l -> l.startsWith(needed))) {
                throw new AssertionError("the runnable jar lacks " + needed + "*: " + libraries);
            }
        }
        List<String> testOnly = libraries.stream().filter(l -> TEST_ONLY.stream().anyMatch(l::startsWith)).toList();
        if (!testOnly.isEmpty()) {
            throw new AssertionError("test-only libraries in the runnable jar: " + testOnly);
        }
    }

    /** The file names of the libraries in the one {@code *-exec.jar} under {@code target}. */
    public static List<String> libraries(Path target) {
        try (Stream<Path> files = Files.list(target)) {
            Path jar = files.filter(p -> p.getFileName().toString().endsWith("-exec.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no *-exec.jar in " + target + "; run the package phase"));
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                return zip.stream().map(e -> e.getName()).filter(n -> n.startsWith("BOOT-INF/lib/"))
                        .map(n -> n.substring("BOOT-INF/lib/".length())).toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
