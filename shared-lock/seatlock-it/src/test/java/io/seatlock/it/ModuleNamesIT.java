package io.seatlock.it;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every published jar names its module ({@code Automatic-Module-Name}), so an application on the module path gets
 * stable names, not ones guessed from file names; no two jars share one, and each name is what the JDK reads off
 * the jar. Runs after the jars are packaged.
 */
class ModuleNamesIT {

    /** The jars: every module with classes, and the starter. */
    private static final List<String> JARS = Stream.concat(LibraryClasses.MODULES.stream(),
            Stream.of("seatlock-spring-boot-starter")).toList();

    @Test
    void everyPublishedJarNamesItsModuleAndTheJdkReadsThatName() throws IOException {
        Map<String, String> names = new LinkedHashMap<>();
        for (String module : JARS) {
            Path jar = jarOf(module);
            String declared;
            try (JarFile file = new JarFile(jar.toFile())) {
                declared = file.getManifest().getMainAttributes().getValue("Automatic-Module-Name");
            }
            assertThat(declared).as("%s: Automatic-Module-Name", jar).isNotBlank().startsWith("io.seatlock.");
            Optional<ModuleReference> read = ModuleFinder.of(jar).findAll().stream().findFirst();
            assertThat(read).as("the JDK reads %s as a module", jar).isPresent();
            assertThat(read.get().descriptor().name()).isEqualTo(declared);
            names.put(module, declared);
        }
        assertThat(names.values()).as("module names %s", names).doesNotHaveDuplicates();
    }

    private static Path jarOf(String module) throws IOException {
        Path target = LibraryClasses.LIBRARY.resolve(module).resolve("target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(f -> f.getFileName().toString().matches(module + "-[0-9][^-]*(-SNAPSHOT)?\\.jar"))
                    .findFirst().orElseThrow(() -> new AssertionError(module + " has no jar in " + target));
        }
    }
}
