package io.seatlock.localservers;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README, the pages of docs/ and bench/README.md name the tests that prove their claims ({@code `SeatFourteenCTest`},
 * {@code `JobsReplicasTest.eachPaymentIsCaptured...`}, {@code `RedisLockContractTest.executeLocked*`}): each named
 * test class must exist in the repository, and each named method (a prefix where the name ends in {@code ...} or
 * {@code *}) must be declared in it, so a renamed or removed test cannot leave a claim pointing at nothing.
 */
class ReadmeTestNamesTest {

    private static final Pattern REFERENCE =
            Pattern.compile("`([A-Z][a-z][A-Za-z0-9]*(?:Test|IT))(?:\\.([a-z][A-Za-z0-9_]*)(\\.\\.\\.|\\*)?)?`");

    @Test
    void everyTestTheReadmeNamesExists() throws IOException {
        Map<String, List<Path>> sources = javaSources();
        StringBuilder pages = new StringBuilder();
        for (Path page : DocsPages.all()) {
            pages.append(Files.readString(page)).append('\n');
        }
        Matcher reference = REFERENCE.matcher(pages);
        List<String> found = new ArrayList<>();
        TreeSet<String> missing = new TreeSet<>();
        while (reference.find()) {
            found.add(reference.group());
            List<Path> classes = sources.getOrDefault(reference.group(1), List.of());
            if (classes.isEmpty()) {
                missing.add(reference.group() + ": no such class");
            } else if (reference.group(2) != null
                    && classes.stream().noneMatch(source -> declares(source, reference.group(2), reference.group(3) != null))) {
                missing.add(reference.group() + ": no such method in " + classes);
            }
        }
        assertThat(found).as("test names in the docs").hasSizeGreaterThan(40);
        assertThat(missing).as("tests the docs name that the repository does not have").isEmpty();
    }

    /** Every {@code .java} file of the repository, outside build output, by its simple name (a name may repeat). */
    private static Map<String, List<Path>> javaSources() throws IOException {
        return DocsPages.javaSources().stream()
                .collect(Collectors.groupingBy(file -> file.getFileName().toString().replace(".java", "")));
    }

    private static boolean declares(Path source, String method, boolean prefix) {
        Pattern declaration = Pattern.compile("\\bvoid " + method + (prefix ? "[A-Za-z0-9_]*" : "") + "\\(");
        try {
            return declaration.matcher(Files.readString(source)).find();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
