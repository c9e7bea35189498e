package com.example.replicas;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A deployment pipeline's "migrate once" step, run three times at once (three pipelines, or regions) as
 * separate processes: {@code --seatlock.migration.only=true}. Each run gets the database settings from the
 * environment, as a Kubernetes Job would, and a schema of its own here.
 */
class MigrateOnceTest {

    private final JdbcTemplate db = new JdbcTemplate(new DriverManagerDataSource(System.getenv("SPRING_DATASOURCE_URL"),
            System.getenv("SPRING_DATASOURCE_USERNAME"), System.getenv("SPRING_DATASOURCE_PASSWORD")));

    private record Run(int exitCode, String output) {
    }

    private static List<Run> threeAtOnce(String schema, String locations) throws Exception {
        List<Process> processes = new ArrayList<>();
        List<Path> outputs = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            Path output = Files.createTempFile("migrate-once-" + schema + "-" + i, ".log");
            outputs.add(output);
            processes.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), ReplicasApplication.class.getName(),
                    "--seatlock.migration.only=true", "--seatlock.lock.instance-id=pipeline-" + i,
                    "--spring.flyway.default-schema=" + schema, "--spring.flyway.schemas=" + schema,
                    "--spring.flyway.locations=" + locations)
                    .redirectErrorStream(true).redirectOutput(output.toFile()).start());
        }
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Process process = processes.get(i);
            if (!process.waitFor(3, TimeUnit.MINUTES)) {
                processes.forEach(Process::destroyForcibly);
                throw new AssertionError("a migrate-once run did not end within 3 minutes:\n" + Files.readString(outputs.get(i)));
            }
            runs.add(new Run(process.exitValue(), read(outputs.get(i))));
        }
        return runs;
    }

    private static String read(Path output) throws IOException {
        try {
            return Files.readString(output);
        } finally {
            Files.delete(output);
        }
    }

    @Test
    void threeRunsAtOnceOnAnEmptyDatabaseMigrateOnceAndAllExitZero() throws Exception {
        List<Run> runs = threeAtOnce("once", "classpath:db/migration");

        assertThat(runs).as("exit codes and output").allSatisfy(run -> {
            assertThat(run.exitCode()).as(run.output()).isZero();
            assertThat(run.output()).contains("seatlock.migration.only: schema is current; exit code 0")
                    .doesNotContain("Tomcat started", "Started ReplicasApplication");
        });
        assertThat(runs).filteredOn(run -> run.output().contains("2 migration(s) executed here")).hasSize(1);
        assertThat(runs).filteredOn(run -> run.output().contains("0 migration(s) executed here")).hasSize(2);
        assertThat(db.queryForList("SELECT version FROM once.flyway_schema_history WHERE success AND version IS NOT NULL ORDER BY installed_rank",
                String.class)).containsExactly("1", "2");
        assertThat(db.queryForObject("SELECT count(*) FROM once.accounts", Long.class)).isEqualTo(1);
    }

    @Test
    void aFailingMigrationMakesEveryRunExitNonZeroAndNoneReportsSuccess() throws Exception {
        List<Run> runs = threeAtOnce("broken", "classpath:db/migration,classpath:db/broken");

        assertThat(runs).allSatisfy(run -> {
            assertThat(run.exitCode()).as(run.output()).isEqualTo(1);
            assertThat(run.output()).contains("seatlock.migration.only: migration failed, exit code 1")
                    .doesNotContain("schema is current");
        });
        assertThat(db.queryForList("SELECT version FROM broken.flyway_schema_history WHERE success AND version IS NOT NULL ORDER BY installed_rank",
                String.class)).as("V1 and V2 once, V3 never").containsExactly("1", "2");
    }
}
