package io.seatlock.localservers;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The apps use seatlock as an outside user would: its public API packages only, never the implementation
 * helpers ({@code io.seatlock.lock.spi}, the transport SPI {@code io.seatlock.lock.redis.spi}) or the auto-configuration's internals.
 */
public final class LibraryBoundary {

    private LibraryBoundary() {
    }

    /** Fails if the production classes of {@code appPackage} reach past the library's public API. */
    public static void checkUsesPublicApiOnly(String appPackage) {
        JavaClasses app = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(appPackage);
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.seatlock.lock.spi..", "io.seatlock.lock.redis.spi..")
                .andShould().dependOnClassesThat().resideInAnyPackage("io.seatlock.lock.autoconfigure..")
                .because("applications configure the library through properties and beans, not its wiring")
                .check(app);
    }
}
