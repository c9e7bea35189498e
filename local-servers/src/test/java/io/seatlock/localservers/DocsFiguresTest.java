package io.seatlock.localservers;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every measured figure a page quotes is in the result file it cites, so no figure outlives the run it came from: a
 * ratio ({@code 0.92x}), a confidence interval ({@code [0.90, 0.95]}) or a time in milliseconds or microseconds with
 * decimals ({@code 2.98 ms}). On README.md and docs/, a paragraph or table row that quotes a ratio, an interval or a
 * percentile ({@code p99 2.98 ms}) names
 * the result file(s) ({@code bench/results/<name>.md}) it comes from, and each figure of it, the times included, is
 * in one of them; a ratio after the word "goal" is a goal, not a measurement. On bench/README.md each section quotes
 * from the result files its commands write ({@code -> bench/results/<name>.md}). Each result file records where it
 * came from (the benchmark run writes the commit, date, CPU, JDK, server versions and command at its top).
 */
class DocsFiguresTest {

    private static final Pattern FIGURE = Pattern.compile(
            "(?<![\\w.])(\\d+\\.\\d+x|\\[\\d+\\.\\d+, \\d+\\.\\d+\\]|\\d+\\.\\d+ (?:ms|µs))");
    private static final Pattern RATIO_OR_INTERVAL = Pattern.compile("(?<![\\w.])(\\d+\\.\\d+x|\\[\\d+\\.\\d+, \\d+\\.\\d+\\])");
    /** A latency a benchmark measured: a percentile or the median, then a time with decimals. */
    private static final Pattern PERCENTILE = Pattern.compile("(?i)(?:p50|p99|median)\\D{0,24}\\d+\\.\\d+ (?:ms|µs)");
    private static final Pattern RESULT_FILE = Pattern.compile("results/([\\w-]+\\.md)");
    private static final Path RESULTS = DocsPages.ROOT.resolve("bench/results");

    @Test
    void everyFigureAPageQuotesIsInTheResultFileItCites() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (Path page : DocsPages.all()) {
            String name = DocsPages.ROOT.relativize(page).toString();
            if (name.equals("CHANGELOG.md")) {
                continue; // what changed, in words; figures live on the pages
            }
            List<String> units = name.equals("bench/README.md") ? sections(Files.readString(page))
                    : paragraphs(Files.readString(page));
            for (String unit : units) {
                wrong.addAll(check(name, unit));
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void everyResultFileRecordsWhereItCameFrom() throws IOException {
        List<String> without = new ArrayList<>();
        try (var files = Files.list(RESULTS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                String text = Files.readString(file);
                if (!(text.contains("| commit | date | CPU | cores | JDK | Redis | PostgreSQL | command |")
                        && text.contains("-Dbench.args="))) {
                    without.add(RESULTS.relativize(file).toString());
                }
            }
        }
        assertThat(without).as("result files without their provenance table").isEmpty();
    }

    @Test
    void aFigureNotInItsFileOrWithoutAFileIsCaught() {
        assertThat(check("README.md", "seatlock is 9.99x raw Lettuce ([lettuce](bench/results/lettuce-goals.md))"))
                .isNotEmpty();
        assertThat(check("README.md", "seatlock is 1.47x ShedLock")).isNotEmpty();
        assertThat(check("README.md", "the goal 1.2x, not met")).isEmpty();
    }

    private static List<String> check(String page, String unit) {
        List<String> wrong = new ArrayList<>();
        Set<String> cited = new LinkedHashSet<>();
        Matcher file = RESULT_FILE.matcher(unit);
        while (file.find()) {
            cited.add(file.group(1));
        }
        boolean quotes = false;
        Matcher ratio = RATIO_OR_INTERVAL.matcher(unit);
        while (ratio.find()) {
            quotes |= !goal(unit, ratio.start());
        }
        quotes |= PERCENTILE.matcher(unit).find();
        if (!quotes) {
            return wrong;
        }
        String excerpt = unit.strip().lines().findFirst().orElse("");
        if (cited.isEmpty()) {
            wrong.add(page + ": figures without the result file they come from, in: " + excerpt);
            return wrong;
        }
        StringBuilder sources = new StringBuilder();
        for (String name : cited) {
            Path result = RESULTS.resolve(name);
            if (!Files.isRegularFile(result)) {
                wrong.add(page + ": cites " + name + ", which does not exist");
                continue;
            }
            try {
                sources.append(Files.readString(result));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        Matcher figure = FIGURE.matcher(unit);
        while (figure.find()) {
            String value = figure.group(1);
            if (!goal(unit, figure.start()) && !sources.toString().contains(value.replace(" ms", "").replace(" µs", ""))) {
                wrong.add(page + ": " + value + " is in none of " + cited + ", in: " + excerpt);
            }
        }
        return wrong;
    }

    /** Whether the figure at {@code at} is a goal ("goal 1.2x", "goal: at least 0.8x"), not a measurement. */
    private static boolean goal(String unit, int at) {
        String before = unit.substring(Math.max(0, at - 24), at).toLowerCase();
        return before.contains("goal");
    }

    /** Paragraphs (blank-line separated), each table row on its own. */
    private static List<String> paragraphs(String page) {
        List<String> units = new ArrayList<>();
        for (String paragraph : page.split("\n\\s*\n")) {
            if (paragraph.strip().startsWith("|")) {
                units.addAll(paragraph.lines().toList());
            } else {
                units.add(paragraph);
            }
        }
        return units;
    }

    /** The page's sections, from one heading to the next. */
    private static List<String> sections(String page) {
        return List.of(page.split("(?m)^(?=#{2,3} )"));
    }
}
