package io.seatlock.lock.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.spi.StoreLease;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** The module and package rules of the library, checked on its compiled classes. */
class LibraryArchitectureTest {

    private static final JavaClasses LIBRARY = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.seatlock.lock");
    private static final JavaClasses LIBRARY_AND_TEST_KIT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.seatlock.lock", "io.seatlock.test");

    @Test
    void theApiDependsOnNothingButTheJdk() {
        noClasses().that().resideInAnyPackage("io.seatlock.lock", "io.seatlock.lock.spi", "io.seatlock.lock.internal")
                .should().dependOnClassesThat().resideOutsideOfPackages("io.seatlock.lock", "io.seatlock.lock.spi",
                        "io.seatlock.lock.internal", "java..", "javax.sql..", "org.jspecify..")
                .check(LIBRARY);
    }

    @Test
    void theApiKnowsNoImplementationOrRecipe() {
        noClasses().that().resideInAnyPackage("io.seatlock.lock", "io.seatlock.lock.spi")
                .should().dependOnClassesThat().resideInAnyPackage("io.seatlock.lock.redis..", "io.seatlock.lock.leader..",
                        "io.seatlock.lock.fencing..", "io.seatlock.lock.slots..", "io.seatlock.lock.shedlock..",
                        "io.seatlock.lock.autoconfigure..")
                .check(LIBRARY);
    }

    @Test
    void recipesAndProvidersWorkOnAnyLockNotOnTheRedisOne() {
        noClasses().that().resideInAnyPackage("io.seatlock.lock.leader..", "io.seatlock.lock.fencing..",
                        "io.seatlock.lock.slots..", "io.seatlock.lock.shedlock..")
                .should().dependOnClassesThat().resideInAnyPackage("io.seatlock.lock.redis..", "io.lettuce..",
                        "io.seatlock.lock.autoconfigure..")
                .check(LIBRARY);
    }

    @Test
    void onlyTheAutoConfigurationKnowsSpringBoot() {
        noClasses().that().resideOutsideOfPackage("io.seatlock.lock.autoconfigure..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.boot..",
                        "org.springframework.context..")
                .check(LIBRARY);
        // Micrometer: the auto-configuration's metrics, and the observations module that is about nothing else
        noClasses().that().resideOutsideOfPackages("io.seatlock.lock.autoconfigure..", "io.seatlock.lock.micrometer..")
                .should().dependOnClassesThat().resideInAnyPackage("io.micrometer..")
                .check(LIBRARY);
        noClasses().that().resideOutsideOfPackages("io.seatlock.lock.autoconfigure..", "io.seatlock.lock.migration..")
                .should().dependOnClassesThat().resideInAnyPackage("org.flywaydb..")
                .check(LIBRARY);
    }

    /**
     * One jar for Spring Boot 3.5 and 4.x: a class that names a type only one line has is that line's adapter (Boot3*,
     * Boot4*, or a configuration nested in one of those names), which Spring loads only behind a class condition on that
     * line's names; every other class names only what both lines have, so it loads on either.
     */
    @Test
    void onlyABootLinesAdapterNamesWhatOnlyThatLineHas() {
        String[] boot4Only = {"org.springframework.boot.data..", "org.springframework.boot.jdbc..",
                "org.springframework.boot.flyway..", "org.springframework.boot.health..",
                "org.springframework.boot.micrometer.."};
        String[] boot35Only = {"org.springframework.boot.autoconfigure.data..", "org.springframework.boot.autoconfigure.jdbc..",
                "org.springframework.boot.autoconfigure.flyway..", "org.springframework.boot.actuate.health..",
                "org.springframework.boot.actuate.autoconfigure.health..", "org.springframework.boot.env.."};
        noClasses().that().resideInAPackage("io.seatlock.lock.autoconfigure..")
                .and().haveSimpleNameNotStartingWith("Boot4")
                .should().dependOnClassesThat().resideInAnyPackage(boot4Only)
                .check(LIBRARY);
        noClasses().that().resideInAPackage("io.seatlock.lock.autoconfigure..")
                .and().haveSimpleNameNotStartingWith("Boot3")
                .should().dependOnClassesThat().resideInAnyPackage(boot35Only)
                .check(LIBRARY);
        noClasses().that().resideInAPackage("io.seatlock.lock.autoconfigure..")
                .and().haveSimpleNameNotStartingWith("Boot4")
                .should().dependOnClassesThat().haveFullyQualifiedName("org.springframework.boot.EnvironmentPostProcessor")
                .check(LIBRARY);
    }

    @Test
    void theRedisLockKnowsNoClientLibraryOnlyItsTransportsDo() {
        noClasses().that().resideInAnyPackage("io.seatlock.lock.redis", "io.seatlock.lock.redis.spi")
                .should().dependOnClassesThat().resideInAnyPackage("io.lettuce..", "redis.clients..", "io.netty..")
                .check(LIBRARY);
    }

    @Test
    void theRedisLockKnowsNoFramework() {
        noClasses().that().resideInAPackage("io.seatlock.lock.redis..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "net.javacrumbs..")
                .check(LIBRARY);
    }

    @Test
    void everyStoresLeaseIsTheOneLeaseStateMachine() {
        classes().that().implement(LockLease.class)
                .and().resideInAnyPackage("io.seatlock.lock.redis..", "io.seatlock.lock.postgres..",
                        "io.seatlock.lock.mysql..", "io.seatlock.lock.jdbc..")
                .should().beAssignableTo(StoreLease.class)
                .check(LIBRARY);
    }

    /**
     * The SPI is what a store needs: the test kit's in-memory lock, a store written as an outsider would, uses none of
     * the library's own helpers; and the helpers know neither the SPI nor any module above them.
     */
    @Test
    void aStoreOutsideTheLibraryNeedsNoInternalHelper() {
        noClasses().that().resideInAPackage("io.seatlock.test..")
                .should().dependOnClassesThat().resideInAPackage("io.seatlock.lock.internal..")
                .check(LIBRARY_AND_TEST_KIT);
        noClasses().that().resideInAPackage("io.seatlock.lock.internal..")
                .should().dependOnClassesThat().resideInAnyPackage("io.seatlock.lock.spi..", "io.seatlock.lock.redis..",
                        "io.seatlock.lock.postgres..", "io.seatlock.lock.autoconfigure..")
                .check(LIBRARY);
    }

    /** What the database stores share is theirs alone: no other part of the library leans on it. */
    @Test
    void onlyTheDatabaseStoresUseTheirSharedPart() {
        noClasses().that().resideOutsideOfPackages("io.seatlock.lock.jdbc.internal..", "io.seatlock.lock.postgres..",
                        "io.seatlock.lock.mysql..")
                .should().dependOnClassesThat().resideInAPackage("io.seatlock.lock.jdbc.internal..")
                .check(LIBRARY);
    }

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.seatlock.lock.(*)..").should().beFreeOfCycles().check(LIBRARY);
    }
}
