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
