package io.seatlock.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The compiled classes of the published modules, by name, as the checks over the whole library read them. */
final class LibraryClasses {

    /** The published modules that have classes (the BOM and the starter have none). */
    static final List<String> MODULES = List.of("seatlock-api", "seatlock-recipes", "seatlock-redis",
            "seatlock-redis-lettuce", "seatlock-redis-jedis", "seatlock-jdbc", "seatlock-jdbc-internal", "seatlock-postgres",
            "seatlock-mysql", "seatlock-micrometer",
            "seatlock-shedlock",
            "seatlock-spring-boot",
            "seatlock-test");
    static final Path LIBRARY = Path.of("").toAbsolutePath().getParent(); // surefire runs in seatlock-it

    private LibraryClasses() {
    }

    /** The module's compiled classes folder. */
    static Path classesOf(String module) {
        Path classes = LIBRARY.resolve(module).resolve("target/classes");
        assertThat(classes).as("%s is compiled", module).isDirectory();
        return classes;
    }

    /**
     * Every class of the module by binary name, sorted (package and module descriptors left out, and the Spring Boot
     * 3.5 adapters, which load only on 3.5: package-private, each named Boot3* or nested in one, as
     * LibraryArchitectureTest holds them).
     */
    static List<String> namesIn(String module) throws IOException {
        Path classes = classesOf(module);
        try (Stream<Path> files = Files.walk(classes)) {
            return files.filter(f -> f.toString().endsWith(".class"))
                    .map(f -> classes.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", ""))
                    .filter(name -> !name.endsWith("package-info") && !name.endsWith("module-info"))
                    .filter(name -> !ofSpringBoot35(name)).sorted().toList();
        }
    }

    private static boolean ofSpringBoot35(String binaryName) {
        String simple = binaryName.substring(binaryName.lastIndexOf('.') + 1);
        return Arrays.stream(simple.split("\\$")).anyMatch(part -> part.startsWith("Boot3"));
    }
}
