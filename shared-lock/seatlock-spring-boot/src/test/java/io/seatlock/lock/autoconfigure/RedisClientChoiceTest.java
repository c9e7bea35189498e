package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.localservers.RedisSentinelSetup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which Redis client carries the lock: {@code seatlock.lock.client-type}, else the application's own
 * {@code spring.data.redis.client-type}, else Lettuce when present, else Jedis; a client asked for and missing
 * stops startup with a message naming what to add. Each case takes and releases a lock and reads its key in Redis.
 */
class RedisClientChoiceTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("RedisClientChoiceTest");

    private final ApplicationContextRunner lockOnItsOwnUrl = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeatlockLockAutoConfiguration.class))
            .withPropertyValues("seatlock.lock.key-prefix=" + servers.keyPrefix(),
                    "seatlock.lock.redis-url=redis://" + servers.redis().host() + ":" + servers.redis().port());

    /** The lock took a lease whose owner token is the key's value in Redis, on the client named. */
    private static ContextConsumer<AssertableApplicationContext> locksOn(String client) {
        return context -> {
            assertThat(context).hasNotFailed();
            RedisLockClient lock = context.getBean(RedisLockClient.class);
            assertThat(lock.client()).isEqualTo(client);
            try (LockLease lease = lock.tryAcquire("choice:job", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                    .orElseThrow()) {
                String owner = servers.redis().with(r -> r.get(new RedisKeys(servers.keyPrefix()).lock("choice:job")));
                assertThat(owner).isEqualTo(lease.ownerToken());
            }
            long left = servers.redis().with(r -> r.exists(new RedisKeys(servers.keyPrefix()).lock("choice:job")));
            assertThat(left).as("released").isZero();
        };
    }

    @Test
    void withBothClientsAndNothingSetLettuceCarriesTheLock() {
        lockOnItsOwnUrl.run(locksOn("lettuce"));
    }

    @Test
    void seatlockClientTypeJedisPutsTheLockOnJedis() {
        lockOnItsOwnUrl.withPropertyValues("seatlock.lock.client-type=jedis").run(locksOn("jedis"));
    }

    @Test
    void withoutLettuceJedisCarriesTheLockUnasked() {
        lockOnItsOwnUrl.withClassLoader(new FilteredClassLoader("io.lettuce", "io.seatlock.lock.redis.lettuce",
                "org.springframework.data.redis", "org.springframework.boot.data.redis")).run(locksOn("jedis"));
    }

    @Test
    void theLockFollowsTheApplicationsOwnJedisClient() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, SeatlockLockAutoConfiguration.class))
                .withPropertyValues("seatlock.lock.key-prefix=" + servers.keyPrefix(), "spring.data.redis.client-type=jedis",
                        "spring.data.redis.host=" + servers.redis().host(), "spring.data.redis.port=" + servers.redis().port())
                .run(context -> {
                    assertThat(context.getBean(RedisConnectionFactory.class)).isInstanceOf(JedisConnectionFactory.class);
                    locksOn("jedis").accept(context);
                });
    }

    @Test
    void jedisAskedForButMissingStopsStartupNamingTheModule() {
        lockOnItsOwnUrl.withPropertyValues("seatlock.lock.client-type=jedis")
                .withClassLoader(new FilteredClassLoader("io.seatlock.lock.redis.jedis"))
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("io.seatlock:seatlock-redis-jedis"));
    }

    @Test
    void withNeitherClientStartupNamesBoth() {
        lockOnItsOwnUrl.withClassLoader(new FilteredClassLoader("io.lettuce", "io.seatlock.lock.redis.lettuce", "io.seatlock.lock.redis.jedis",
                        "org.springframework.data.redis", "org.springframework.boot.data.redis"))
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("io.seatlock:seatlock-redis-lettuce")
                        .hasMessageContaining("io.seatlock:seatlock-redis-jedis"));
    }

    @Test
    void aSentinelUrlServesJedisAsItServesLettuce() throws Exception {
        try (RedisSentinelSetup redis = new RedisSentinelSetup()) {
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(SeatlockLockAutoConfiguration.class))
                    .withPropertyValues("seatlock.lock.client-type=jedis", "seatlock.lock.redis-url=" + redis.sentinelUrl())
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        DistributedLock lock = context.getBean(DistributedLock.class);
                        try (LockLease lease = lock.tryAcquire("sentinel:job", Duration.ofSeconds(10),
                                OverlapImpact.WASTED_WORK).orElseThrow()) {
                            String owner = redis.master().with(r -> r.get(new RedisKeys("seatlock:").lock("sentinel:job")));
                            assertThat(owner).as("the grant is on the master the Sentinels name").isEqualTo(lease.ownerToken());
                        }
                    });
        }
    }
}
