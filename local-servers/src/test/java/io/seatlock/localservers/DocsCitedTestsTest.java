package io.seatlock.localservers;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every test a page names as the one that holds a sentence (`SomeTest` or `SomeTest.someMethod`, a name that ends
 * in {@code Test} or {@code IT}) is a test class of this repository, and the method is one of its own or its
 * contract's: a renamed or deleted test leaves no sentence vouched for by nothing.
 */
class DocsCitedTestsTest {

    private static final Pattern CITED = Pattern.compile("`([A-Z][A-Za-z0-9]*[a-z0-9](?:Test|IT))(?:\\.([a-z][A-Za-z0-9]*)(?:\\.\\.\\.)?)?`");

    @Test
    void everyCitedTestClassAndMethodExists() throws IOException {
        Map<String, List<String>> sources = testSources();
        List<String> missing = new ArrayList<>();
        int cited = 0;
        for (Path page : DocsPages.all()) {
            Matcher m = CITED.matcher(Files.readString(page));
            while (m.find()) {
                cited++;
                String type = m.group(1);
                String method = m.group(2);
                List<String> files = sources.get(type);
                if (files == null) {
                    missing.add(DocsPages.ROOT.relativize(page) + ": " + m.group());
                } else if (method != null && !m.group().endsWith("...`")
                        && files.stream().noneMatch(text -> declares(text, method))) {
                    missing.add(DocsPages.ROOT.relativize(page) + ": " + m.group() + " (no such method)");
                }
            }
        }
        assertThat(cited).as("test citations found").isGreaterThan(50);
        assertThat(missing).isEmpty();
    }

    /** A method of that name, declared in the class or in the contract or base class it extends. */
    private static boolean declares(String text, String method) {
        return Pattern.compile("\\b(void|[A-Z][A-Za-z0-9<>]*) " + method + "\\(").matcher(text).find();
    }

    /** Each test class's source, with the sources of the classes it extends, by simple name. */
    private static Map<String, List<String>> testSources() throws IOException {
        Map<String, String> byName = new HashMap<>();
        for (Path file : DocsPages.javaSources()) {
            String name = file.getFileName().toString().replace(".java", "");
            byName.merge(name, Files.readString(file), (a, b) -> a + "\n" + b);
        }
        Map<String, List<String>> withBases = new HashMap<>();
        Pattern extendsClause = Pattern.compile("class \\w+(?:<[^>]*>)? extends (\\w+)");
        for (Map.Entry<String, String> type : byName.entrySet()) {
            List<String> texts = new ArrayList<>();
            String text = type.getValue();
            for (int depth = 0; text != null && depth < 5; depth++) {
                texts.add(text);
                Matcher base = extendsClause.matcher(text);
                text = base.find() ? byName.get(base.group(1)) : null;
            }
            withBases.put(type.getKey(), texts);
        }
        return withBases;
    }
}
