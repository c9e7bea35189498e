package example;

import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The migration gate from outside: three replicas start at once on one empty database. */
class ExampleMigrationGateTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ExampleMigrationGateTest");
    private final ExampleReplicas replicas = new ExampleReplicas(servers);

    @AfterEach
    void stop() {
        replicas.close();
    }

    @Test
    void threeReplicasOnAnEmptyDatabaseMigrateOnceAndAllStart() {
        List<ConfigurableApplicationContext> three = replicas.startAll(List.of("m-1", "m-2", "m-3"));
        JdbcTemplate db = new JdbcTemplate(servers.dataSource());

        assertThat(three).allMatch(ConfigurableApplicationContext::isActive);
        // V1 of the app, and the library's two repeatable migrations (lock_fences, job_runs)
        assertThat(db.queryForObject("SELECT count(*) FROM flyway_schema_history WHERE success", Long.class))
                .isEqualTo(3);
        assertThat(db.queryForObject("SELECT count(*) FROM flyway_schema_history WHERE NOT success", Long.class)).isZero();
        assertThat(db.queryForObject("SELECT count(DISTINCT script) FROM flyway_schema_history", Long.class))
                .as("each migration applied once: one history row per script").isEqualTo(3);
        assertThat(db.queryForObject("SELECT count(*) FROM example_seats", Long.class)).isEqualTo(2);
    }
}
