package com.example.replicas;

import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class ThreeReplicasTest {

    static {
        // Three replicas start at once in one JVM: Spring Boot re-initialising Logback from each at the same time
        // races inside Logback (ConcurrentModificationException). Separate processes never share it.
        System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
    }

    @Test
    void threeReplicasWithAJpaEntityThatNeedsV2OnOneEmptyDatabaseAllStartAndMigrateOnce() throws Exception {
        ExecutorService starts = Executors.newFixedThreadPool(3);
        List<Future<ConfigurableApplicationContext>> replicas = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            String id = "replica-" + i;
            replicas.add(starts.submit(() -> new SpringApplicationBuilder(ReplicasApplication.class)
                    .properties("seatlock.lock.instance-id=" + id).run()));
        }
        List<ConfigurableApplicationContext> started = new ArrayList<>();
        try {
            for (Future<ConfigurableApplicationContext> replica : replicas) {
                started.add(replica.get(3, TimeUnit.MINUTES));
            }
            assertThat(started).hasSize(3).allMatch(ConfigurableApplicationContext::isActive);
            JdbcTemplate db = started.get(0).getBean(JdbcTemplate.class);
            assertThat(db.queryForObject("SELECT count(*) FROM flyway_schema_history WHERE success", Long.class))
                    .isEqualTo(2);
            assertThat(db.queryForObject("SELECT owner FROM accounts WHERE id = 1", String.class)).isEqualTo("omar");
            // every replica's start-up read went through JPA on the V2 schema
            assertThat(started).allSatisfy(app ->
                    assertThat(app.getBean(FirstAccountOnStart.class).summary()).isEqualTo("omar/basic"));
            // each replica's runner got an answer from the lock right after start, none an exception
            assertThat(started).extracting(app -> app.getBean(LockOnStart.class).outcome())
                    .containsAnyOf("acquired").allMatch(outcome -> outcome.equals("acquired") || outcome.equals("busy"));
        } finally {
            started.forEach(ConfigurableApplicationContext::close);
            starts.shutdownNow();
        }
    }
}
