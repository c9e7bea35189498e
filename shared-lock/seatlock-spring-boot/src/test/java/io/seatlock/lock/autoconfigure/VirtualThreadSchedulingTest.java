package io.seatlock.lock.autoconfigure;

import io.seatlock.localservers.IsolatedServers;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.slots.JobSlots;
import io.seatlock.lock.slots.ScheduledSlot;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ScriptUtils;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application with {@code spring.threads.virtual.enabled=true}: Spring's scheduler then starts every firing on a
 * virtual thread of its own, with no limit, so a fixed-rate job slower than its rate overlaps itself on one replica.
 * Shown here on two replicas as users meet it: the unguarded job does overlap; the same job under
 * {@code @SchedulerLock} runs one firing at a time over both (the others find the lock held and skip); a cron job that
 * claims its slot runs each slot once over both; the leader election, whose schedule is the library's own, elects one.
 * Virtual threads need Java 21; .ci/run runs this on Java 25.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadSchedulingTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("VirtualThreadSchedulingTest");

    /** Longer than the jobs' rate: firings overlap unless something stops them. */
    private static final long WORK_MILLIS = 120;

    @BeforeAll
    static void jobRunsTable() throws Exception {
        try (Connection connection = servers.dataSource().getConnection()) {
            ScriptUtils.executeSqlScript(connection, new ClassPathResource("db/seatlock/R__seatlock_job_runs.sql"));
        }
    }

    /** How many firings of one job run at once, at most, and on what threads. */
    static final class Overlap {
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        final AtomicInteger runs = new AtomicInteger();
        final AtomicInteger onPlatformThreads = new AtomicInteger();

        void run() {
            int now = running.incrementAndGet();
            most.accumulateAndGet(now, Math::max);
            if (!isVirtual(Thread.currentThread())) {
                onPlatformThreads.incrementAndGet();
            }
            try {
                Thread.sleep(WORK_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
                runs.incrementAndGet();
            }
        }

        private static boolean isVirtual(Thread thread) {
            try {
                return (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
    }

    /** The jobs of each replica; what the two replicas share is counted across both. */
    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @EnableSchedulerLock(defaultLockAtMostFor = "10s")
    static class Jobs {
        static final Overlap GUARDED = new Overlap();
        static final Map<Instant, AtomicInteger> RUNS_PER_SLOT = new ConcurrentHashMap<>();
        final Overlap unguarded = new Overlap();
        private final JobSlots slots;

        Jobs(JobSlots slots) {
            this.slots = slots;
        }

        /** Through a method: the bean is ShedLock's proxy, whose own fields are empty. */
        Overlap unguarded() {
            return unguarded;
        }

        @Scheduled(fixedRate = 30)
        void unguardedReport() {
            unguarded.run();
        }

        @Scheduled(fixedRate = 30)
        @SchedulerLock(name = "vt-report")
        void guardedReport() {
            GUARDED.run();
        }

        /** Every second, on both replicas: each slot's firing on each, and one record decides which runs it. */
        @Scheduled(cron = "* * * * * *")
        void capture() {
            Instant slot = ScheduledSlot.current().orElseThrow();
            if (slots.claim("vt-capture", slot)) {
                RUNS_PER_SLOT.computeIfAbsent(slot, s -> new AtomicInteger()).incrementAndGet();
            }
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    JdbcTemplateAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    TaskExecutionAutoConfiguration.class, TaskSchedulingAutoConfiguration.class,
                    SeatlockLockAutoConfiguration.class, SeatlockShedLockAutoConfiguration.class,
                    SeatlockJdbcAutoConfiguration.class, SeatlockLeaderAutoConfiguration.class))
            .withPropertyValues(servers.springProperties().entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new))
            .withPropertyValues("spring.threads.virtual.enabled=true", "seatlock.leader.groups.vt.lease=3s",
                    "seatlock.leader.groups.vt.retry=100ms")
            .withUserConfiguration(Jobs.class);

    @Test
    void onVirtualThreadsAnUnguardedJobOverlapsItselfAndTheLockAndTheSlotRecordKeepItToOne() {
        runner.withPropertyValues("seatlock.lock.instance-id=vt-a").run(a -> runner
                .withPropertyValues("seatlock.lock.instance-id=vt-b").run(b -> {
            assertThat(a).hasNotFailed();
            assertThat(b).hasNotFailed();
            Jobs jobsA = a.getBean(Jobs.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> Jobs.GUARDED.runs.get() >= 5
                    && jobsA.unguarded().most.get() >= 2 && Jobs.RUNS_PER_SLOT.size() >= 3);
            LeaderElections electionsA = a.getBean(LeaderElections.class);
            LeaderElections electionsB = b.getBean(LeaderElections.class);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> electionsA.get("vt").isLeader() != electionsB.get("vt").isLeader());

            assertThat(jobsA.unguarded().onPlatformThreads).as("Spring's scheduler runs firings on virtual threads").hasValue(0);
            assertThat(jobsA.unguarded().most.get()).as("firings of the unguarded job at once on one replica")
                    .isGreaterThanOrEqualTo(2);
            assertThat(Jobs.GUARDED.onPlatformThreads).hasValue(0);
            assertThat(Jobs.GUARDED.most).as("firings of the job under @SchedulerLock at once, on both replicas").hasValue(1);
            Map<Instant, AtomicInteger> slots = Map.copyOf(Jobs.RUNS_PER_SLOT);
            assertThat(slots.values()).as("each slot ran once over both replicas").allSatisfy(n -> assertThat(n).hasValue(1));
            JdbcTemplate db = new JdbcTemplate(servers.dataSource());
            assertThat(db.queryForObject("SELECT count(*) FROM job_runs WHERE job_name = 'vt-capture' AND slot <= ?",
                    Long.class, java.sql.Timestamp.from(slots.keySet().stream().max(Instant::compareTo).orElseThrow())))
                    .as("one record per slot that ran").isEqualTo((long) slots.size());
        }));
    }
}
