package io.seatlock.jobs;

import io.seatlock.localservers.ExecJar;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

/** The runnable jar carries the library's starter and none of the test kit or the development servers. */
class ExecJarIT {

    @Test
    void theRunnableJarCarriesNoTestLibraries() {
        ExecJar.assertProductionOnly(Path.of("target"));
    }
}
