package io.seatlock.it;

import io.seatlock.localservers.IsolatedMariaDb;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Maven projects outside this build, each a user's application that depends on the published artifacts
 * only (installed fresh into a repository of their own by invoker:install), built and tested with the
 * project's Maven wrapper. Each gets its own database and key prefix; the servers are handed over as
 * environment variables, the way a user's deployment would.
 */
class OutsideProjectsIT {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("OutsideProjectsIT");
    @RegisterExtension
    static final IsolatedMariaDb mariaDb = new IsolatedMariaDb("OutsideProjectsIT");

    private static final Path ROOT = Paths.get(System.getProperty("seatlock.it.root"));
    private static final Path PROJECTS = Paths.get(System.getProperty("seatlock.it.projects"));
    private static final Path WORK = Paths.get(System.getProperty("seatlock.it.work"));
    private static final Path REPO = Paths.get(System.getProperty("seatlock.it.repo"));
    private static final Path USER_REPO = Paths.get(System.getProperty("seatlock.it.user-repo"));
    private static final String VERSION = System.getProperty("seatlock.it.version");
    /** The Spring Boot version the projects build on, in place of their parent's; blank for their own. */
    private static final String BOOT = System.getProperty("seatlock.it.boot", "").trim();
    /** Properties that line's build needs besides (-Dname=value ...). */
    private static final String BOOT_ARGS = System.getProperty("seatlock.it.boot-args", "").trim();
    private static final Pattern BOOT_PARENT = Pattern.compile(
            "(<artifactId>spring-boot-starter-parent</artifactId>\\s*<version>)[^<]+(</version>)");
    /** Spring Boot 4's Flyway starter; on 3.5 an application adds Flyway itself, whose auto-configuration Boot has. */
    private static final Pattern BOOT_4_FLYWAY = Pattern.compile(
            "<groupId>org.springframework.boot</groupId>(\\s*)<artifactId>spring-boot-starter-flyway</artifactId>");

    @BeforeAll
    static void settings() throws IOException {
        Files.createDirectories(WORK);
        // Our artifacts come only from the fresh repository; third-party ones are copied from the user's own
        // repository when it has them (no download), else fetched from Maven Central as a user's build would.
        Files.writeString(WORK.resolve("settings.xml"), """
                <settings>
                  <profiles>
                    <profile>
                      <id>user-repository</id>
                      <repositories>
                        <repository><id>user-repository</id><url>%1$s</url>
                          <snapshots><enabled>false</enabled></snapshots></repository>
                      </repositories>
                      <pluginRepositories>
                        <pluginRepository><id>user-repository</id><url>%1$s</url>
                          <snapshots><enabled>false</enabled></snapshots></pluginRepository>
                      </pluginRepositories>
                    </profile>
                  </profiles>
                  <activeProfiles><activeProfile>user-repository</activeProfile></activeProfiles>
                </settings>
                """.formatted(USER_REPO.toUri()));
    }

    @AfterAll
    static void dropProjectDatabases() {
        for (String project : List.of("lock-only", "jedis-user", "shedlock-user", "flyway-replicas", "own-writes",
                "postgres-only", "every-part", "mariadb-only")) {
            servers.postgres().dropDatabase(database(project));
        }
    }

    @Test
    void aLockOnlyAppWithTheStarterAloneTakesAndReleasesAFencedLock() {
        String output = build("lock-only", Map.of());
        assertThat(output).contains("Tests run: 2, Failures: 0, Errors: 0");
        if (!BOOT.isEmpty()) {
            assertThat(output).as("the project built on the line asked for").contains("lock-only ran on Spring Boot " + BOOT);
        }
        assertThat(keysLeft()).as("the app released its lock").isEmpty();
    }

    @Test
    void anAppOnPostgresAloneLocksLeadsAndRunsASlotOnceInItsOwnDatabase() {
        String output = build("postgres-only", Map.of(), Set.of("SEATLOCK_LOCK_REDIS_URL", "SPRING_DATA_REDIS_URL"));
        assertThat(output).contains("Tests run: 2, Failures: 0, Errors: 0")
                .contains("seatlock lock on PostgreSQL (table seatlock.leases");
        assertThat(keysLeft()).as("nothing in Redis").isEmpty();
    }

    /** Its database is a MariaDB, which the lock follows; the 14C story runs in it, guarded and unguarded. */
    @Test
    void anAppOnMariaDbAloneLocksAndItsLeaseFenceRefusesAPausedHolder() {
        String output = build("mariadb-only", Map.of("SPRING_DATASOURCE_URL", mariaDb.jdbcUrl(),
                "SPRING_DATASOURCE_USERNAME", mariaDb.server().user(),
                "SPRING_DATASOURCE_PASSWORD", mariaDb.server().password()),
                Set.of("SEATLOCK_LOCK_REDIS_URL", "SPRING_DATA_REDIS_URL"));
        assertThat(output).contains("Tests run: 3, Failures: 0, Errors: 0")
                .contains("seatlock lock on MySQL (table seatlock_leases").contains("mariadb-only ran its lock as MySqlLock");
        assertThat(keysLeft()).as("nothing in Redis").isEmpty();
        assertThat(new JdbcTemplate(mariaDb.dataSource()).queryForObject("SELECT holder FROM tickets WHERE seat = '14C'",
                String.class)).as("the unguarded run's last write, read from the app's own database").isNotNull();
    }

    @Test
    void aJedisUserLeavesLettuceOutAndTheLockRunsOnJedis() {
        String output = build("jedis-user", Map.of());
        assertThat(output).contains("Tests run: 2, Failures: 0, Errors: 0");
        assertThat(keysLeft()).as("the app released its lock").isEmpty();
    }

    /** Its Redis is Spring Data Redis' own ({@code spring.data.redis.url}), and the lock takes it from there. */
    @Test
    void aShedLockUserGetsSeatlocksProviderAndRunsATaskOnce() {
        String output = build("shedlock-user", Map.of(), Set.of("SEATLOCK_LOCK_REDIS_URL"));
        assertThat(output).contains("Tests run: 1, Failures: 0, Errors: 0")
                .contains("seatlock lock connected to Redis (" + servers.redis().host() + ":" + servers.redis().port());
    }

    @Test
    void threeReplicasOfAFlywayAppWithoutActuatorMigrateOnceOnAnEmptyDatabaseAndAllStart() {
        String output = build("flyway-replicas", Map.of());
        // three replicas with a JPA entity that needs V2; three migrate-once processes; three with a broken V3
        assertThat(output).contains("Tests run: 3, Failures: 0, Errors: 0");
        JdbcTemplate db = new JdbcTemplate(servers.postgres().dataSource(database("flyway-replicas")));
        assertThat(db.queryForList("SELECT version FROM flyway_schema_history WHERE success AND version IS NOT NULL",
                String.class)).containsExactlyInAnyOrder("1", "2");
        assertThat(db.queryForObject("SELECT count(*) FROM accounts", Long.class)).isEqualTo(1);
    }

    /**
     * Each part of the auto-configuration in one application (Spring Data Redis' settings, PostgreSQL as the store, the
     * JDBC pieces, Flyway behind the gate, ShedLock, a leader group, health, the locks endpoint, meters and
     * observations, a failure report, a property no longer read), written with no class that moved between Spring Boot
     * lines, so that it runs on each; and each part backing off on the bean a user would replace, in an application
     * context runner, on the line at hand.
     */
    @Test
    void everyPartOfTheAutoConfigurationWorksInOneApp() {
        String output = build("every-part", Map.of(), Set.of("SEATLOCK_LOCK_REDIS_URL"));
        assertThat(output).contains("Tests run: 14, Failures: 0, Errors: 0");
        assertThat(keysLeft()).as("every lease released").isEmpty();
    }

    /** Builds this commit's library a second time, elsewhere, and compares every jar byte for byte. */
    @Test
    void aSecondBuildOfTheSameSourcesGivesByteIdenticalLibraryJars() throws IOException {
        Assumptions.assumeTrue(BOOT.isEmpty(), "the library's jars are the same whichever line the projects build on");
        Path copy = WORK.resolve("rebuild");
        copy(ROOT, copy, Set.of(".git", "target", "bench")); // the repository's sources only
        List<String> modules = List.of("seatlock-api", "seatlock-recipes", "seatlock-redis", "seatlock-redis-jedis",
                "seatlock-jdbc", "seatlock-shedlock", "seatlock-spring-boot", "seatlock-spring-boot-starter");
        String projects = String.join(",", modules.stream().map(m -> "shared-lock/" + m).toList());
        run(copy, List.of(copy.resolve("mvnw").toString(), "-B", "-ntp", "-o", "package", "-DskipTests", "-pl", projects,
                "-am"), Map.of());
        int compared = 0;
        for (String module : modules) {
            try (Stream<Path> jars = Files.list(ROOT.resolve("shared-lock").resolve(module).resolve("target"))) {
                for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).toList()) {
                    Path again = copy.resolve("shared-lock").resolve(module).resolve("target").resolve(jar.getFileName());
                    assertThat(again).as("rebuilt %s", jar.getFileName()).exists();
                    assertThat(Files.mismatch(jar, again)).as("%s differs from its rebuild", jar.getFileName()).isEqualTo(-1L);
                    compared++;
                }
            }
        }
        // every module's jar, sources and javadoc, and the two published test suites (seatlock-redis', -shedlock's)
        assertThat(compared).as("jars, sources, javadoc and test-suite jars compared").isEqualTo(modules.size() * 3 + 2);
    }

    @Test
    void anAppTestsItsOwnWritesWithTheKitGuardedPassesAndUnguardedIsCaught() {
        String output = build("own-writes", Map.of());
        // three stories (14C, a scheduled capture, a leader's write), each guarded and unguarded
        assertThat(output).contains("Tests run: 6, Failures: 0, Errors: 0");
    }

    private List<String> keysLeft() {
        return servers.redis().with(r -> r.keys(servers.keyPrefix() + "lock:*"));
    }

    /** Each outside project gets a database of its own (and the class's key prefix). */
    private static String database(String project) {
        return servers.database() + "_" + project.replace('-', '_');
    }

    /** Copies the project, builds it with {@code verify} against the fresh artifacts, and returns its output. */
    private String build(String project, Map<String, String> extraEnv) {
        return build(project, extraEnv, Set.of());
    }

    /** As above, without the environment variables named in {@code leftOut} (a project that has no Redis). */
    private String build(String project, Map<String, String> extraEnv, Set<String> leftOut) {
        String database = database(project);
        servers.postgres().dropDatabase(database);
        servers.postgres().ensureDatabase(database);
        Path dir = WORK.resolve(project);
        copy(PROJECTS.resolve(project), dir, Set.of("target"));
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("mvnw").toString(), "-B", "-ntp", "verify",
                "-s", WORK.resolve("settings.xml").toString(), "-Dmaven.repo.local=" + REPO,
                "-Dseatlock.version=" + VERSION));
        if (!BOOT.isEmpty()) {
            onBootLine(dir.resolve("pom.xml"));
            command.addAll(List.of(BOOT_ARGS.split("\\s+")).stream().filter(a -> !a.isEmpty()).toList());
        }
        String redisUrl = "redis://" + (servers.redis().password() == null ? "" : ":" + servers.redis().password() + "@")
                + servers.redis().host() + ":" + servers.redis().port();
        Map<String, String> given = new HashMap<>(Map.of(
                "SEATLOCK_LOCK_REDIS_URL", redisUrl,
                "SEATLOCK_LOCK_KEY_PREFIX", servers.keyPrefix(),
                "SPRING_DATA_REDIS_URL", redisUrl,
                "SPRING_DATASOURCE_URL", servers.postgres().jdbcUrl(database),
                "SPRING_DATASOURCE_USERNAME", servers.postgres().user(),
                "SPRING_DATASOURCE_PASSWORD", servers.postgres().password() == null ? "" : servers.postgres().password()));
        given.putAll(extraEnv);
        given.keySet().removeAll(leftOut);
        return run(dir, command, given);
    }

    /**
     * Puts the project on the Spring Boot line asked for, as its user would: its parent's version is that line's, and on
     * 3.5 Flyway's own artifact stands where Boot 4 has a Flyway starter.
     */
    private static void onBootLine(Path pom) {
        try {
            String text = Files.readString(pom);
            Matcher parent = BOOT_PARENT.matcher(text);
            assertThat(parent.find()).as("%s has Spring Boot's parent", pom).isTrue();
            text = parent.replaceFirst("$1" + Matcher.quoteReplacement(BOOT) + "$2");
            if (BOOT.startsWith("3.")) {
                text = BOOT_4_FLYWAY.matcher(text).replaceAll("<groupId>org.flywaydb</groupId>$1<artifactId>flyway-core</artifactId>");
            }
            Files.writeString(pom, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs a Maven build in {@code dir} with a clean environment plus {@code env}; fails unless it passes. */
    private static String run(Path dir, List<String> command, Map<String, String> env) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("build.log").toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("SPRING_") || k.startsWith("SEATLOCK_")
                || k.equals("MAVEN_OPTS"));
        builder.environment().putAll(env);
        try {
            Process build = builder.start();
            boolean ended = build.waitFor(8, TimeUnit.MINUTES);
            if (!ended) {
                build.destroyForcibly();
            }
            String output = Files.readString(dir.resolve("build.log"));
            assertThat(ended).as("the build in %s ended within 8 minutes:%n%s", dir, output).isTrue();
            assertThat(build.exitValue()).as("the build in %s passed:%n%s", dir, output).isZero();
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Copies a tree, attributes included (the wrapper stays executable), leaving out folders of these names. */
    private static void copy(Path from, Path to, Set<String> leftOut) {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path source : files.filter(p -> {
                for (Path segment : from.relativize(p)) {
                    if (leftOut.contains(segment.toString())) {
                        return false;
                    }
                }
                return true;
            }).toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                            java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
