package io.seatlock.lock.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.localservers.DocumentedAcl;
import io.seatlock.localservers.OwnedRedis;
import io.seatlock.localservers.RedisServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The least-privilege ACL the README documents (read from README.md) is enough for every lock operation, and no more. */
class RedisAclTest {

    @Test
    void theDocumentedAclAllowsTheLockAndNothingElse() throws Exception {
        try (OwnedRedis redis = new OwnedRedis()) {
            DocumentedAcl.apply(redis.server());
            RedisURI uri = RedisURI.builder().withHost("127.0.0.1").withPort(redis.port())
                    .withAuthentication("seatlock", DocumentedAcl.password()).build();

            try (RedisLockClient lock = TestTransports.standalone(uri, Duration.ofSeconds(2),
                    RedisLockSettings.defaults(), LockListener.NOOP)) {
                assertThat(lock.ping()).isPositive();
                LockLease lease = lock.tryAcquire("acl:job", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK).orElseThrow();
                assertThat(lock.remainingTtl("acl:job")).isPresent();
                assertThat(lock.heldNames("acl:")).containsExactly("acl:job");
                assertThat(lock.held(java.util.List.of("acl:job", "acl:free"))).containsExactly("acl:job");
                assertThat(lease.renew(Duration.ofSeconds(10))).isTrue();
                assertThat(lease.release()).isEqualTo(ReleaseOutcome.RELEASED);
                redis.server().with(r -> r.scriptFlush());
                LockLease again = lock.tryAcquire("acl:job", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK).orElseThrow();

                // hand-over: a waiter marks the lock and subscribes; the release publishes
                try (RedisLockClient waiter = TestTransports.standalone(uri, Duration.ofSeconds(2),
                        RedisLockSettings.defaults().withInstanceId("waiter"), LockListener.NOOP)) {
                    CompletableFuture<LockLease> next = CompletableFuture.supplyAsync(() -> {
                        try {
                            return waiter.acquire("acl:job", Duration.ofSeconds(5), OverlapImpact.WASTED_WORK, Duration.ofSeconds(30));
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    String lockKey = RedisLockSettings.defaults().keys().lock("acl:job");
                    await().atMost(Duration.ofSeconds(30)).until(() ->
                            redis.server().<String>with(r -> r.get(lockKey)).endsWith(OwnerTokens.WAITED));
                    assertThat(again.release()).isEqualTo(ReleaseOutcome.RELEASED);
                    assertThat(next.get(30, TimeUnit.SECONDS).release()).isEqualTo(ReleaseOutcome.RELEASED);
                    assertThat(redis.server().commandCalls()).containsKey("publish");
                }
            }

            RedisServer.onConnection(uri, r -> {
                assertThatThrownBy(r::flushall).isInstanceOf(RedisCommandExecutionException.class)
                        .hasMessageContaining("NOPERM");
                assertThatThrownBy(() -> r.set("other:key", "v")).isInstanceOf(RedisCommandExecutionException.class)
                        .hasMessageContaining("NOPERM");
                return null;
            });
        }
    }
}
