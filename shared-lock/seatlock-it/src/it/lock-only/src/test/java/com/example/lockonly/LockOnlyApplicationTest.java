package com.example.lockonly;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@SpringBootTest
class LockOnlyApplicationTest {

    @Autowired
    DistributedLock lock;

    @Test
    void takesAndReleasesAFencedLock() {
        long first;
        try (LockLease lease = lock.tryAcquire("outside:lock-only", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                .orElseThrow()) {
            first = lease.fencingToken().value();
            assertThat(first).isPositive();
            assertThat(lock.tryAcquire("outside:lock-only", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)).isEmpty();
            assertThat(lock.remainingTtl("outside:lock-only")).isPresent();
        }
        assertThat(lock.remainingTtl("outside:lock-only")).isEmpty();
        try (LockLease again = lock.tryAcquire("outside:lock-only", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                .orElseThrow()) {
            assertThat(again.fencingToken().value()).isGreaterThan(first);
        }
    }

    @Test
    void theStarterBroughtNoFrameworkTheAppDidNotAskFor() {
        System.out.println("lock-only ran on Spring Boot " + SpringBootVersion.getVersion()); // read by OutsideProjectsIT
        for (String absent : new String[] {"org.springframework.data.redis.core.RedisTemplate",
                "org.springframework.jdbc.core.JdbcTemplate", "net.javacrumbs.shedlock.core.LockProvider",
                "org.flywaydb.core.Flyway", "io.micrometer.core.instrument.MeterRegistry",
                "org.springframework.boot.actuate.endpoint.annotation.Endpoint"}) {
            assertThatThrownBy(() -> Class.forName(absent)).as(absent).isInstanceOf(ClassNotFoundException.class);
        }
    }
}
