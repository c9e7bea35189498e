package io.seatlock.lock.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.localservers.DocumentedAcl;
import io.seatlock.localservers.OwnedRedis;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The least-privilege ACL the README documents (read from README.md) is enough for every lock operation, and no more. */
class RedisAclTest {

    @Test
    void theDocumentedAclAllowsTheLockAndNothingElse() throws Exception {
        try (OwnedRedis redis = new OwnedRedis()) {
            DocumentedAcl.apply(redis.server());
            RedisURI uri = RedisURI.builder().withHost("127.0.0.1").withPort(redis.port())
                    .withAuthentication("seatlock", DocumentedAcl.password()).build();

            try (RedisLockClient lock = RedisLockClient.standalone(uri, Duration.ofSeconds(2),
                    RedisLockSettings.defaults(), LockListener.NOOP)) {
                assertThat(lock.ping()).isPositive();
                LockLease lease = lock.tryAcquire("acl:job", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK).orElseThrow();
                assertThat(lock.remainingTtl("acl:job")).isPresent();
                assertThat(lock.heldNames("acl:")).containsExactly("acl:job");
                assertThat(lease.renew(Duration.ofSeconds(10))).isTrue();
                assertThat(lease.release()).isEqualTo(ReleaseOutcome.RELEASED);
                redis.server().with(r -> r.scriptFlush());
                assertThat(lock.tryAcquire("acl:job", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK)).isPresent();
            }

            RedisClient client = RedisClient.create(uri);
            try (StatefulRedisConnection<String, String> c = client.connect()) {
                assertThatThrownBy(() -> c.sync().flushall()).isInstanceOf(RedisCommandExecutionException.class)
                        .hasMessageContaining("NOPERM");
                assertThatThrownBy(() -> c.sync().set("other:key", "v")).isInstanceOf(RedisCommandExecutionException.class)
                        .hasMessageContaining("NOPERM");
            } finally {
                client.shutdown();
            }
        }
    }
}
