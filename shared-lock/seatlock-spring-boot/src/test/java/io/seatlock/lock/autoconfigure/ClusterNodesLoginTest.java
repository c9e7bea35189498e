package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.localservers.DocumentedAcl;
import io.seatlock.localservers.RedisCluster;
import io.seatlock.localservers.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code seatlock.lock.cluster-nodes} for a cluster that asks a login: each seed as a {@code redis://user:password@}
 * URL, on a real three-master cluster under the README's ACL, where the lock's connections log in as that user. Seeds
 * that differ in login, or are not Redis URLs, stop startup with a message that quotes no password.
 */
class ClusterNodesLoginTest {

    private static RedisCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = new RedisCluster();
        cluster.nodes().forEach(DocumentedAcl::applyForCluster);
    }

    @AfterAll
    static void stop() throws Exception {
        cluster.close();
    }

    private static ApplicationContextRunner lockOn(String clusterNodes) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SeatlockLockAutoConfiguration.class))
                .withPropertyValues("seatlock.lock.cluster-nodes=" + clusterNodes);
    }

    private static String seeds(String login) {
        return cluster.seeds().stream().map(seed -> "redis://" + login + "127.0.0.1:" + seed.getPort())
                .collect(Collectors.joining(","));
    }

    @ParameterizedTest
    @ValueSource(strings = {"lettuce", "jedis"})
    void seedsWithALoginPutTheLockOnTheClusterAsThatUser(String client) {
        lockOn(seeds("seatlock:" + DocumentedAcl.password() + "@")).withPropertyValues("seatlock.lock.client-type=" + client)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    RedisLockClient lock = context.getBean(RedisLockClient.class);
                    String key = new RedisKeys(lock.settings().keyPrefix()).lock("login:job");
                    try (LockLease lease = lock.tryAcquire("login:job", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                            .orElseThrow()) {
                        RedisServer holder = cluster.nodes().get(cluster.indexHolding(key));
                        String owner = holder.with(r -> r.get(key));
                        String clients = holder.with(r -> r.clientList());
                        assertThat(owner).isEqualTo(lease.ownerToken());
                        assertThat(clients).as("the lock's connections log in as the seeds' user").contains("user=seatlock");
                    }
                });
    }

    @Test
    void seedsThatDifferInLoginStopStartupQuotingNoPassword() {
        String mixed = "redis://seatlock:s3cret@127.0.0.1:" + cluster.seeds().get(0).getPort() + ",127.0.0.1:"
                + cluster.seeds().get(1).getPort();
        lockOn(mixed).run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("differ in scheme, user or password")
                .hasMessageNotContaining("s3cret"));
        lockOn("http://seatlock:s3cret@127.0.0.1:1").run(context -> assertThat(context).hasFailed().getFailure()
                .rootCause().hasMessageContaining("host:port or redis[s]://").hasMessageNotContaining("s3cret"));
    }
}
