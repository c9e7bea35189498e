package io.seatlock.localservers;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Java block that a page marks {@code <!-- snippet: path#tag -->} is the region of that compiled source between
 * {@code // tag::tag[]} and {@code // end::tag[]}, to the character: the page cannot drift from code the build
 * compiles and tests.
 */
class DocsSnippetsTest {

    private static final Pattern SNIPPET = Pattern.compile("<!-- snippet: ([^#\\s]+)#([\\w-]+) -->\\n```java\\n(.*?)```",
            Pattern.DOTALL);

    @Test
    void everyMarkedSnippetIsItsSourcesTaggedRegion() throws IOException {
        List<String> drifted = new ArrayList<>();
        int snippets = 0;
        for (Path page : DocsPages.all()) {
            Matcher snippet = SNIPPET.matcher(Files.readString(page));
            while (snippet.find()) {
                snippets++;
                Path source = DocsPages.ROOT.resolve(snippet.group(1));
                String region = region(Files.readString(source), snippet.group(2));
                if (!region.equals(snippet.group(3))) {
                    drifted.add(DocsPages.ROOT.relativize(page) + ": " + snippet.group(1) + "#" + snippet.group(2));
                }
            }
        }
        assertThat(snippets).as("marked snippets").isGreaterThanOrEqualTo(2);
        assertThat(drifted).as("snippets that differ from their source's tagged region").isEmpty();
    }

    private static String region(String source, String tag) {
        String begin = "// tag::" + tag + "[]\n";
        String end = "// end::" + tag + "[]";
        int from = source.indexOf(begin);
        int to = source.indexOf(end);
        assertThat(from).as("tag %s", tag).isNotNegative();
        assertThat(to).as("end of tag %s", tag).isGreaterThan(from);
        return source.substring(from + begin.length(), to);
    }
}
