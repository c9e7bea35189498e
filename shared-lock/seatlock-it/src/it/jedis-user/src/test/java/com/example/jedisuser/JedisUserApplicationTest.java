package com.example.jedisuser;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisLockClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@SpringBootTest
class JedisUserApplicationTest {

    @Autowired
    DistributedLock lock;

    @Test
    void takesAndReleasesAFencedLockOnJedis() {
        assertThat(((RedisLockClient) lock).client()).isEqualTo("jedis");
        long first;
        try (LockLease lease = lock.tryAcquire("outside:jedis-user", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                .orElseThrow()) {
            first = lease.fencingToken().value();
            assertThat(lock.tryAcquire("outside:jedis-user", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)).isEmpty();
            assertThat(lock.holder("outside:jedis-user")).isPresent();
        }
        assertThat(lock.remainingTtl("outside:jedis-user")).isEmpty();
        try (LockLease again = lock.tryAcquire("outside:jedis-user", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                .orElseThrow()) {
            assertThat(again.fencingToken().value()).isGreaterThan(first);
        }
    }

    @Test
    void lettuceIsNotOnTheClassPath() {
        assertThatThrownBy(() -> Class.forName("io.lettuce.core.RedisClient")).isInstanceOf(ClassNotFoundException.class);
    }
}
