package io.seatlock.seats;

import io.seatlock.localservers.ExecJar;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The runnable jar carries the library's starter and none of the test kit or the development servers. */
class ExecJarIT {

    @Test
    void theRunnableJarCarriesNoTestLibraries() {
        List<String> libraries = ExecJar.libraries(Path.of("target"));
        assertThat(libraries).anyMatch(l -> l.startsWith("seatlock-spring-boot-starter-"))
                .anyMatch(l -> l.startsWith("seatlock-redis-"))
                .noneMatch(l -> l.startsWith("seatlock-test-") || l.startsWith("local-servers-")
                        || l.startsWith("junit-") || l.startsWith("assertj-") || l.startsWith("awaitility-")
                        || l.startsWith("embedded-") || l.startsWith("testcontainers"));
    }
}
