package io.seatlock.it;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The BOM hands a user the ShedLock this build is tested with: one version, or the outside projects (which take it
 * from the BOM) would run on another.
 */
class BomVersionsTest {

    private static final Pattern SHEDLOCK = Pattern.compile("<shedlock.version>([^<]+)</shedlock.version>");

    @Test
    void theBomManagesTheShedLockThisBuildIsTestedWith() throws IOException {
        Path module = Path.of("").toAbsolutePath(); // surefire runs in the module's own folder
        assertThat(shedlockVersion(module.resolve("../seatlock-bom/pom.xml")))
                .isEqualTo(shedlockVersion(module.resolve("../../pom.xml")));
    }

    private static String shedlockVersion(Path pom) throws IOException {
        Matcher version = SHEDLOCK.matcher(Files.readString(pom));
        assertThat(version.find()).as("%s sets shedlock.version", pom).isTrue();
        return version.group(1);
    }
}
