package com.example.postgresonly;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.postgres.PostgresLeaseFence;
import io.seatlock.lock.postgres.PostgresLock;
import io.seatlock.lock.slots.JobSlots;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@SpringBootTest
class PostgresOnlyApplicationTest {

    @Autowired ApplicationContext context;
    @Autowired DistributedLock lock;
    @Autowired LeaderElections elections;
    @Autowired PostgresOnlyApplication.Ledger ledger;
    @Autowired JobSlots slots;
    @Autowired JdbcTemplate jdbc;

    @Test
    void theLockLivesInTheApplicationsDatabaseAndNoRedisClientCameAlong() {
        assertThat(context.getBeansOfType(PostgresLock.class)).hasSize(1);
        assertThat(context.getBean(io.seatlock.lock.Fence.class)).isInstanceOf(PostgresLeaseFence.class);
        assertThatThrownBy(() -> Class.forName("io.lettuce.core.RedisClient")).isInstanceOf(ClassNotFoundException.class);
        try (LockLease lease = lock.tryAcquire("outside:postgres-only", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                .orElseThrow()) {
            assertThat(jdbc.queryForObject("SELECT fencing_token FROM seatlock.leases WHERE name = 'outside:postgres-only'",
                    Long.class)).isEqualTo(lease.fencingToken().value());
        }
    }

    @Test
    void oneLeaderWritesInItsEpochAndASlotRunsOnce() {
        await().atMost(Duration.ofSeconds(10)).until(() -> elections.get("ledger").isLeader());
        assertThat(ledger.record("first")).isTrue();
        assertThat(jdbc.queryForObject("SELECT epoch FROM ledger WHERE entry = 'first'", Long.class))
                .isEqualTo(elections.get("ledger").epoch().orElseThrow().value());
        Instant slot = Instant.parse("2027-01-01T00:00:00Z");
        assertThat(slots.claim("outside-job", slot)).isTrue();
        assertThat(slots.claim("outside-job", slot)).isFalse();
    }
}
