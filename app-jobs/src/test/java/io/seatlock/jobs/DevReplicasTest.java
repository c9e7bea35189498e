package io.seatlock.jobs;

import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.localservers.ChildJvm;
import io.seatlock.localservers.LocalServers;
import io.seatlock.localservers.PostgresServer;
import io.seatlock.localservers.RedisServer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GH-9: two app-jobs replicas started the README's way (TestJobsApplication, no server settings, each on
 * its own HTTP port) find the same development servers and elect one leader between them, and each ends
 * cleanly when asked to stop.
 */
class DevReplicasTest {

    private static JsonNode jobsGroup(ChildJvm replica) throws Exception {
        String body = ReplicaHttp.get(replica.port(), "/actuator/locks", Duration.ofSeconds(5)).body();
        for (JsonNode group : JsonMapper.shared().readTree(body).get("leaders")) {
            if (group.get("group").asString().equals("jobs")) {
                return group;
            }
        }
        throw new AssertionError("no leader group 'jobs' in " + body);
    }

    @Test
    void twoReplicasStartedTheReadmesWayShareTheirServersAndElectOneLeader() throws Exception {
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        String database = "t_devreplicas_" + id;
        String prefix = "t" + id + ":";
        // Only what keeps this test apart from others; no datasource or Redis settings.
        Map<String, String> settings = Map.of("seatlock.dev.database", database, "seatlock.lock.key-prefix", prefix,
                "management.endpoints.web.exposure.include", "health,locks",
                "jobs.report.cron", "-", "jobs.payments.cron", "-");
        PostgresServer pg = LocalServers.forDevelopment().postgres();
        RedisServer redis = LocalServers.forDevelopment().redis();
        try (ChildJvm first = new ChildJvm(TestJobsApplication.class, settings);
             ChildJvm second = new ChildJvm(TestJobsApplication.class, settings)) {
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() ->
                    jobsGroup(first).get("thisReplicaLeads").asBoolean() != jobsGroup(second).get("thisReplicaLeads").asBoolean());
            List<JsonNode> views = List.of(jobsGroup(first), jobsGroup(second));
            JsonNode leader = views.stream().filter(v -> v.get("thisReplicaLeads").asBoolean()).findFirst().orElseThrow();
            assertThat(views).extracting(v -> v.get("leader").asString()).as("both see one and the same leader")
                    .containsOnly(leader.get("candidate").asString());
            assertThat(views).extracting(v -> v.get("candidate").asString()).doesNotHaveDuplicates();
            String owner = redis.with(r -> r.get(new RedisKeys(prefix).lock("leader:jobs")));
            // the follower waits on the leader's release, so the owner token may carry the lock's "waited" mark
            assertThat(owner).matches(".*@" + java.util.regex.Pattern.quote(leader.get("candidate").asString()) + "(\\|waited)?");

            // GH-21 item 11: a stop request (Maven's run goal sends SIGTERM when Maven alone was interrupted) is a
            // clean end of a development run, which spring-boot:test-run reports as a success only for 0 or 130.
            assertThat(List.of(second.terminate(), first.terminate())).as("exit codes after SIGTERM").containsOnly(0);
        } finally {
            redis.deleteKeys(prefix);
            pg.dropDatabase(database);
        }
    }
}
