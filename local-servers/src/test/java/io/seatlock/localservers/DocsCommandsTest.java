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
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every command the README, docs/, bench/README.md and the CHANGELOG show is real where the build can say so: a
 * {@code bin/} script exists and runs, an {@code ./mvnw} line names modules ({@code -pl}) and profiles ({@code -P})
 * the build has, a benchmark ({@code -Dbench.args}) the bench module runs, and a plugin goal the module has; no line
 * runs a module or benchmark by a name of its own (such as {@code bench -Dbench.args=...}) instead of through
 * {@code ./mvnw}.
 */
class DocsCommandsTest {

    private static final Pattern BASH_BLOCK = Pattern.compile("(?s)```bash\n(.*?)```");
    private static final Pattern INLINE = Pattern.compile("`([^`\n]+)`");
    private static final Pattern PROFILE_ID = Pattern.compile("<profile>\\s*<id>([^<]+)</id>");
    private static final Pattern BENCHMARK = Pattern.compile("what\\.equals\\(\"(\\w+)\"\\)");

    @Test
    void everyCommandTheDocsShowNamesWhatTheBuildHas() throws IOException {
        Set<String> profiles = profiles();
        Set<String> benchmarks = benchmarks();
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (Path page : DocsPages.all()) {
            for (String command : commands(Files.readString(page))) {
                checked++;
                String where = DocsPages.ROOT.relativize(page) + ": " + command + ": ";
                check(command, profiles, benchmarks).forEach(problem -> wrong.add(where + problem));
            }
        }
        assertThat(checked).as("commands in the docs").isGreaterThan(20);
        assertThat(wrong).isEmpty();
    }

    @Test
    void aCommandNamingWhatTheBuildLacksIsCaught() throws IOException {
        Set<String> profiles = profiles();
        Set<String> benchmarks = benchmarks();
        assertThat(check("bench -Dbench.args=crowd", profiles, benchmarks)).isNotEmpty();
        assertThat(check("./mvnw -q -Pbench -pl bench exec:exec -Dbench.args=nosuch", profiles, benchmarks)).isNotEmpty();
        assertThat(check("./mvnw -pl app-nosuch spring-boot:test-run", profiles, benchmarks)).isNotEmpty();
        assertThat(check("./mvnw -Pnosuch verify", profiles, benchmarks)).isNotEmpty();
        assertThat(check("bin/nosuch", profiles, benchmarks)).isNotEmpty();
        assertThat(check("./mvnw -q -Pbench -pl bench exec:exec -Dbench.args=crowd", profiles, benchmarks)).isEmpty();
    }

    /** Each line of a bash block, and each inline command, split at {@code &&}, without its comment. */
    private static Set<String> commands(String page) {
        Set<String> commands = new LinkedHashSet<>();
        Matcher block = BASH_BLOCK.matcher(page);
        while (block.find()) {
            block.group(1).lines().forEach(line -> split(line, commands));
        }
        Matcher inline = INLINE.matcher(page);
        while (inline.find()) {
            String code = inline.group(1);
            if (code.matches("(\\S+=\\S+ )*(\\./mvnw|bin/)\\S.*") || code.contains("-Dbench.args=")
                    || code.contains(" -pl ")) {
                split(code, commands);
            }
        }
        return commands;
    }

    private static void split(String line, Set<String> into) {
        int comment = line.indexOf(" #");
        String code = (comment < 0 ? line : line.substring(0, comment)).strip();
        for (String part : code.split("&&")) {
            if (!part.isBlank()) {
                into.add(part.strip());
            }
        }
    }

    /** What is wrong with one command; empty when nothing is. */
    private static List<String> check(String command, Set<String> profiles, Set<String> benchmarks) {
        List<String> problems = new ArrayList<>();
        String[] words = command.replaceFirst("^(\\S+=\\S+ )+", "").split("\\s+");
        String program = words[0];
        if (program.startsWith("bin/")) {
            Path script = DocsPages.ROOT.resolve(program);
            if (!Files.isRegularFile(script) || !Files.isExecutable(script)) {
                problems.add("no executable " + program);
            }
            return problems;
        }
        if (!program.equals("./mvnw")) {
            if (command.contains("-Dbench.args=") || command.contains(" -pl ")) {
                problems.add("run through ./mvnw, not '" + program + "'");
            }
            return problems;
        }
        List<String> modules = new ArrayList<>();
        for (int i = 1; i < words.length; i++) {
            String word = words[i];
            if (word.equals("-pl") && i + 1 < words.length) {
                modules.addAll(List.of(words[++i].split(",")));
            } else if (word.startsWith("-P") && word.length() > 2) {
                for (String profile : word.substring(2).split(",")) {
                    if (!profiles.contains(profile)) {
                        problems.add("no profile " + profile);
                    }
                }
            } else if (word.startsWith("-Dbench.args=")) {
                String benchmark = word.substring("-Dbench.args=".length());
                if (!benchmarks.contains(benchmark)) {
                    problems.add("no benchmark " + benchmark + " (the bench module runs " + benchmarks + ")");
                }
            }
        }
        for (String module : modules) {
            Path pom = DocsPages.ROOT.resolve(module).resolve("pom.xml");
            if (!Files.isRegularFile(pom)) {
                problems.add("no module " + module);
            } else if (command.contains("spring-boot:test-run") && !read(pom).contains("spring-boot-maven-plugin")) {
                problems.add(module + " has no spring-boot-maven-plugin for spring-boot:test-run");
            } else if (command.contains("exec:exec") && !read(pom).contains("exec-maven-plugin")) {
                problems.add(module + " has no exec-maven-plugin for exec:exec");
            }
        }
        return problems;
    }

    private static Set<String> profiles() throws IOException {
        Set<String> ids = new LinkedHashSet<>();
        try (Stream<Path> poms = Files.walk(DocsPages.ROOT, 3)) {
            for (Path pom : poms.filter(p -> p.getFileName().toString().equals("pom.xml")).toList()) {
                Matcher id = PROFILE_ID.matcher(read(pom));
                while (id.find()) {
                    ids.add(id.group(1));
                }
            }
        }
        return ids;
    }

    private static Set<String> benchmarks() {
        Set<String> names = new LinkedHashSet<>();
        Matcher name = BENCHMARK.matcher(read(DocsPages.ROOT.resolve("bench/src/main/java/io/seatlock/bench/BenchMain.java")));
        while (name.find()) {
            names.add(name.group(1));
        }
        return names;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
