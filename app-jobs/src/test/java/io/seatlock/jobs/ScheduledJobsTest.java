package io.seatlock.jobs;

import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GH-11 item 11: the real {@code ScheduledJobs.salesReport}, with its own {@code @SchedulerLock}
 * ({@code lockAtLeastFor = 30s}), fired every second on three replicas: ShedLock lets exactly one run
 * through in the window, and its slot is the cron fire time.
 */
class ScheduledJobsTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ScheduledJobsTest");

    @Test
    void threeReplicasFiringEverySecondRunTheReportOnceUnderShedLock() {
        List<ConfigurableApplicationContext> replicas = new ArrayList<>();
        JdbcClient db = JdbcClient.create(servers.dataSource());
        try {
            for (int i = 1; i <= 3; i++) {
                Map<String, String> p = new HashMap<>(servers.springProperties());
                p.put("seatlock.lock.instance-id", "sched-" + i);
                p.put("jobs.report.cron", "* * * * * *");
                p.put("jobs.payments.cron", "-");
                p.put("seatlock.leader.enabled", "false");
                p.put("spring.main.web-application-type", "none");
                replicas.add(JobsReplica.start(p));
            }
            // every replica fires every second; wait until each has had several chances
            await().atMost(Duration.ofSeconds(30)).until(() -> db.sql(
                    "SELECT count(*) FROM job_runs WHERE job_name = 'sales-report'").query(Long.class).single() >= 1);
            long firstRun = System.nanoTime();
            await().atMost(Duration.ofSeconds(30)).until(() -> System.nanoTime() - firstRun > Duration.ofSeconds(4).toNanos());

            List<Timestamp> slots = db.sql("SELECT slot FROM job_runs WHERE job_name = 'sales-report'")
                    .query(Timestamp.class).list();
            assertThat(slots).as("lockAtLeastFor=30s: one run in the window, although 3 replicas fired ~12 times")
                    .hasSize(1);
            assertThat(slots.get(0).toInstant().getNano()).as("the slot is the cron fire time").isZero();
            String owner = servers.redis().with(r -> r.get(new RedisKeys(servers.keyPrefix()).lock("sales-report")));
            String runner = db.sql("SELECT runner FROM job_runs WHERE job_name = 'sales-report'").query(String.class).single();
            assertThat(owner).as("ShedLock's lock, held for lockAtLeastFor by the runner").endsWith("@" + runner);
        } finally {
            replicas.forEach(ConfigurableApplicationContext::close);
        }
    }
}
