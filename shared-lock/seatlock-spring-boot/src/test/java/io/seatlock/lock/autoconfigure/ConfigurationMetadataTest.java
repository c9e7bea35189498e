package io.seatlock.lock.autoconfigure;

import com.jayway.jsonpath.JsonPath;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.lock.redis.RedisTimeouts;
import io.seatlock.lock.redis.spi.RedisTransport;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The generated configuration metadata (IDE completion) and the property table of docs/spring-boot.md say the same. */
class ConfigurationMetadataTest {

    private static final Pattern TABLE_ROW = Pattern.compile("^\\| `((?:seatlock|management\\.health\\.seatlock)\\.[a-z.-]+)` \\| (`([^`]*)`|–) \\| (.+) \\|$");

    @Test
    void everyPropertyHasAPlainDescriptionAndTheReadmeListsItWithItsDefault() throws IOException {
        Map<String, String> metadata = metadataDefaults();
        Map<String, String> readme = readmeDefaults();

        assertThat(readme).as("docs/spring-boot.md's property table vs. META-INF/spring-configuration-metadata.json")
                .containsExactlyInAnyOrderEntriesOf(metadata);
        assertThat(metadata.keySet()).contains("seatlock.lock.enabled", "seatlock.shedlock.enabled",
                "seatlock.leader.enabled", "seatlock.migration.enabled", "seatlock.slots.enabled",
                "management.health.seatlock.enabled");
    }

    @Test
    void descriptionsAreTextNotJavadocMarkup() throws IOException {
        List<String> descriptions = JsonPath.read(metadataJson(), "$.properties[*].description");
        assertThat(descriptions).isNotEmpty().allSatisfy(d -> assertThat(d).doesNotContain("{@").isNotBlank());
        List<String> names = JsonPath.read(metadataJson(), "$.properties[*].name");
        List<Object> undescribed = JsonPath.read(metadataJson(), "$.properties[?(!@.description)].name");
        assertThat(undescribed).as("properties without a description among %s", names).isEmpty();
    }

    /** The development versions' names: deprecated, each with the replacement the start-up warning names. */
    @Test
    void renamedPropertiesAreDeprecatedWithTheirReplacements() throws IOException {
        Map<String, String> replacements = new LinkedHashMap<>();
        List<Map<String, Object>> deprecated = JsonPath.read(metadataJson(), "$.properties[?(@.deprecation)]");
        for (Map<String, Object> p : deprecated) {
            @SuppressWarnings("unchecked")
            Map<String, Object> deprecation = (Map<String, Object>) p.get("deprecation");
            assertThat(deprecation).containsEntry("level", "error");
            replacements.put((String) p.get("name"), (String) deprecation.get("replacement"));
        }
        assertThat(replacements).isEqualTo(RenamedProperties.RENAMED);
        assertThat(metadataDefaults()).containsKeys(replacements.values().toArray(String[]::new));
    }

    /** The Spring defaults and the plain-Java defaults are one fact: a change to one must change the other. */
    @Test
    void thePropertiesDefaultsAreTheRedisLocksDefaults() {
        SeatlockLockProperties properties = new Binder(new MapConfigurationPropertySource())
                .bindOrCreate("seatlock.lock", SeatlockLockProperties.class);
        RedisLockSettings defaults = RedisLockSettings.defaults();
        assertThat(SeatlockLockAutoConfiguration.settingsOf(properties)).isEqualTo(defaults);
        assertThat(properties.clusterRefresh()).isEqualTo(RedisTransport.DEFAULT_CLUSTER_REFRESH);
        assertThat(SeatlockLockAutoConfiguration.timeoutsOf(properties))
                .isEqualTo(new RedisTimeouts(RedisTimeouts.DEFAULT_CONNECT, RedisTimeouts.DEFAULT_COMMAND));
    }

    /**
     * Every seatlock property a page sets ({@code seatlock.lock.store=postgres}, in prose, a command or a snippet) is
     * one the application can set: a property of the metadata (or a key under a map property,
     * {@code seatlock.leader.groups.<name>.lease}).
     */
    @Test
    void everySeatlockPropertyThePagesNameExists() throws IOException {
        Set<String> known = metadataDefaults().keySet();
        Set<String> unknown = new TreeSet<>();
        List<Path> pages = new java.util.ArrayList<>(List.of(Path.of("../../README.md")));
        try (java.util.stream.Stream<Path> docs = Files.list(Path.of("../../docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
        }
        Pattern property = Pattern.compile("(?<![\\w.])seatlock(?:\\.[a-z<][a-z0-9>-]*)+(?==)");
        for (Path page : pages) {
            Matcher named = property.matcher(Files.readString(page));
            while (named.find()) {
                String name = named.group();
                boolean exists = known.contains(name) || name.startsWith("seatlock.leader.groups.")
                        || known.stream().anyMatch(k -> k.startsWith(name + "."));
                if (!exists && !name.equals("seatlock.lock.shedlock") && !name.equals("seatlock.jobs.enabled")) {
                    unknown.add(page.getFileName() + ": " + name);
                }
            }
        }
        assertThat(unknown).as("seatlock properties the pages set that the metadata does not have").isEmpty();
    }

    private static String metadataJson() throws IOException {
        try (InputStream in = ConfigurationMetadataTest.class.getResourceAsStream(
                "/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("generated metadata on the class path").isNotNull();
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private static Map<String, String> metadataDefaults() throws IOException {
        List<Map<String, Object>> properties = JsonPath.read(metadataJson(), "$.properties[*]");
        Map<String, String> defaults = new LinkedHashMap<>();
        for (Map<String, Object> p : properties) {
            String name = (String) p.get("name");
            if ((name.startsWith("seatlock.") || name.startsWith("management.health.seatlock."))
                    && !p.containsKey("deprecation")) {
                Object value = p.get("defaultValue");
                defaults.put(name, value == null ? "–" : String.valueOf(value));
            }
        }
        return defaults;
    }

    private static Map<String, String> readmeDefaults() throws IOException {
        Map<String, String> defaults = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("../../docs/spring-boot.md"))) {
            Matcher row = TABLE_ROW.matcher(line.strip());
            if (row.matches()) {
                defaults.put(row.group(1), row.group(3) == null ? "–" : row.group(3));
            }
        }
        return defaults;
    }
}
