package com.example.everypart;

import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.autoconfigure.LocksEndpoint;
import io.seatlock.lock.fencing.PostgresFence;
import io.seatlock.lock.shedlock.SeatlockLockProvider;
import io.seatlock.lock.slots.JobSlots;
import net.javacrumbs.shedlock.core.LockProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Each part of seatlock's auto-configuration, in an application as users write it, on whichever Spring Boot line
 * this project is built (OutsideProjectsIT builds it on each). Nothing here names a class that moved between lines:
 * the health indicator is read through the methods both lines' indicators have.
 */
@ExtendWith(OutputCaptureExtension.class)
class EveryPartTest {

    private static final String PREFIX = System.getenv("SEATLOCK_LOCK_KEY_PREFIX");

    /** Starts the application with these properties as command-line arguments, over application.properties. */
    private static ConfigurableApplicationContext start(String... properties) {
        return new SpringApplicationBuilder(EveryPartApplication.class)
                .run(Arrays.stream(properties).map(p -> "--" + p).toArray(String[]::new));
    }

    @Test
    void theLockTakesSpringDataRedisSettingsAndBoundsSpringsOwnClient(CapturedOutput output) {
        try (ConfigurableApplicationContext app = start()) {
            DistributedLock lock = app.getBean(DistributedLock.class);
            assertThat(output).contains("seatlock lock connected to Redis");
            assertThat(app.getEnvironment().getProperty("spring.data.redis.timeout")).isEqualTo("2s");
            StringRedisTemplate redis = app.getBean(StringRedisTemplate.class);
            try (LockLease lease = lock.tryAcquire("every-part:redis", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                    .orElseThrow()) {
                assertThat(redis.keys(PREFIX + "lock:*")).as("the lock's key, seen by Spring's own client")
                        .anyMatch(k -> k.contains("every-part:redis"));
            }
            assertThat(redis.keys(PREFIX + "lock:*")).noneMatch(k -> k.contains("every-part:redis"));
        }
    }

    @Test
    void postgresIsTheStoreWhenAsked(CapturedOutput output) {
        try (ConfigurableApplicationContext app = start("seatlock.lock.store=postgres")) {
            DistributedLock lock = app.getBean(DistributedLock.class);
            assertThat(output).contains("seatlock lock on PostgreSQL (table seatlock.leases").doesNotContain("connected to Redis");
            JdbcTemplate db = app.getBean(JdbcTemplate.class);
            try (LockLease lease = lock.tryAcquire("every-part:postgres", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                    .orElseThrow()) {
                assertThat(db.queryForObject("SELECT count(*) FROM seatlock.leases", Long.class)).isPositive();
                assertThat(lease.fencingToken().value()).isPositive();
            }
        }
    }

    @Test
    void theJdbcPiecesWorkOnTheApplicationsDatabase() {
        try (ConfigurableApplicationContext app = start("spring.sql.init.mode=always",
                "spring.sql.init.schema-locations=classpath:db/seatlock/R__seatlock_job_runs.sql")) {
            assertThat(app.getBeansOfType(PostgresFence.class)).hasSize(1);
            JobSlots slots = app.getBean(JobSlots.class);
            Instant slot = Instant.parse("2026-01-01T00:00:00Z");
            assertThat(slots.claim("every-part", slot)).isTrue();
            assertThat(slots.claim("every-part", slot)).as("the slot ran once").isFalse();
        }
    }

    @Test
    void flywayMigratesBehindTheGateBeforeTheBeans() {
        try (ConfigurableApplicationContext app = start("spring.flyway.enabled=true",
                "spring.flyway.schemas=every_part_gate", "spring.flyway.default-schema=every_part_gate")) {
            JdbcTemplate db = app.getBean(JdbcTemplate.class);
            assertThat(db.queryForList("SELECT name FROM every_part_gate.parts", String.class)).containsExactly("gate");
            assertThat(app.getBean(MeterRegistry.class).get("seatlock.migrations.executed").counter().count())
                    .as("the gate ran the migration").isEqualTo(1.0);
        }
    }

    @Test
    void shedLockRunsTheScheduledJobWithSeatlocksProvider() {
        try (ConfigurableApplicationContext app = start()) {
            assertThat(app.getBean(LockProvider.class)).isInstanceOf(SeatlockLockProvider.class);
            int before = EveryPartApplication.REPORTS.get();
            await().atMost(Duration.ofSeconds(10)).until(() -> EveryPartApplication.REPORTS.get() > before);
        }
    }

    @Test
    void theLeaderGroupElectsThisReplicaAndTheLocksEndpointShowsItAndALease() {
        try (ConfigurableApplicationContext app = start()) {
            LocksEndpoint endpoint = app.getBean(LocksEndpoint.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.locks().leaders().stream()
                    .anyMatch(g -> g.group().equals("ledger") && g.thisReplicaLeads()));
            try (LockLease lease = app.getBean(DistributedLock.class)
                    .tryAcquire("every-part:shown", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK).orElseThrow()) {
                assertThat(endpoint.locks().held()).anyMatch(h -> h.name().equals("every-part:shown")
                        && h.fencingToken() == lease.fencingToken().value());
            }
        }
    }

    @Test
    void theHealthIndicatorIsTheLinesOwnAndSaysUp() throws Exception {
        try (ConfigurableApplicationContext app = start()) {
            Object indicator = app.getBean("seatlockHealthIndicator");
            Object health = indicator.getClass().getMethod("health").invoke(indicator);
            Object status = call(health, "getStatus");
            assertThat(call(status, "getCode")).isEqualTo("UP");
            Map<?, ?> details = (Map<?, ?>) call(health, "getDetails");
            assertThat(details.containsKey("roundTripMicros") && details.containsKey("heldByThisInstance"))
                    .as("the details: %s", details).isTrue();
        }
    }

    @Test
    void metersExistAtZeroAndTheObservationsAreTimed() {
        try (ConfigurableApplicationContext app = start()) {
            MeterRegistry registry = app.getBean(MeterRegistry.class);
            DistributedLock lock = app.getBean(DistributedLock.class);
            lock.tryAcquire("every-part:metered", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK).orElseThrow().close();
            assertThat(registry.find("seatlock.lock.lost").counters()).isNotEmpty()
                    .allSatisfy(c -> assertThat(c.count()).isZero());
            assertThat(registry.find("seatlock.lock.acquired").counters().stream().mapToDouble(c -> c.count()).sum())
                    .isGreaterThanOrEqualTo(1.0);
            assertThat(registry.find("seatlock.lock.acquire").timers()).as("the acquire observation's timer")
                    .anyMatch(t -> t.count() >= 1);
        }
    }

    @Test
    void aBadSettingStopsStartUpWithAFailureReport(CapturedOutput output) {
        assertThatThrownBy(() -> start("seatlock.lock.command-timeout=-1s").close());
        assertThat(output).contains("APPLICATION FAILED TO START").contains("seatlock.lock.command-timeout");
    }

    @Test
    void aPropertyNoLongerReadIsNamedInTheLog(CapturedOutput output) {
        try (ConfigurableApplicationContext app = start("seatlock.jobs.enabled=true")) {
            assertThat(output).contains("seatlock no longer reads the property seatlock.jobs.enabled");
        }
    }

    private static Object call(Object target, String method) throws Exception {
        Method m = target.getClass().getMethod(method);
        m.setAccessible(true);
        return m.invoke(target);
    }
}
