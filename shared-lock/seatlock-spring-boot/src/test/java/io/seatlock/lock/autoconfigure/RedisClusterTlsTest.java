package io.seatlock.lock.autoconfigure;

import io.lettuce.core.cluster.SlotHash;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisKeys;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.localservers.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis Cluster that clients reach over TLS ({@code tls-cluster yes}: the nodes announce their TLS ports), from
 * Spring Boot's own settings, {@code spring.data.redis.cluster.nodes} and an SSL bundle: on both clients the lock
 * takes and releases a lease on every master, through the TLS ports of the cluster's layout.
 */
class RedisClusterTlsTest {

    private static final RedisKeys KEYS = new RedisKeys("cluster-tls-test:");

    @TempDir
    static Path dir;
    private static TestCertificates certificates;
    private static RedisCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        certificates = TestCertificates.in(dir);
        cluster = RedisCluster.overTls(certificates.redisSettings());
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"lettuce", "jedis"})
    void theLockRunsOnEveryMasterOfAClusterOverTls(String client) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, DataRedisAutoConfiguration.class,
                        SeatlockLockAutoConfiguration.class))
                .withPropertyValues("seatlock.lock.key-prefix=cluster-tls-test:", "seatlock.lock.client-type=" + client,
                        "spring.ssl.bundle.pem.test-ca.truststore.certificate=file:" + certificates.caCertificate(),
                        "spring.data.redis.cluster.nodes=" + String.join(",", cluster.tlsNodes()),
                        "spring.data.redis.ssl.bundle=test-ca")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    RedisLockClient lock = context.getBean(RedisLockClient.class);
                    assertThat(lock.client()).isEqualTo(client);
                    for (Map.Entry<Integer, String> onMaster : aNamePerMaster().entrySet()) {
                        String lockKey = KEYS.lock(onMaster.getValue());
                        try (LockLease lease = lock.tryAcquire(onMaster.getValue(), Duration.ofSeconds(10),
                                OverlapImpact.WASTED_WORK).orElseThrow()) {
                            String owner = cluster.nodes().get(onMaster.getKey()).with(r -> r.get(lockKey));
                            assertThat(owner).as("the lease on master %d", onMaster.getKey()).isEqualTo(lease.ownerToken());
                        }
                        assertThat(cluster.indexHolding(lockKey)).as("released").isNegative();
                    }
                    for (int i = 0; i < cluster.nodes().size(); i++) {
                        String tlsPort = cluster.tlsNodes().get(i).substring("127.0.0.1:".length());
                        String clients = cluster.nodes().get(i).with(r -> r.clientList());
                        assertThat(clients).as("connections to master %d", i).contains("laddr=127.0.0.1:" + tlsPort + " ");
                    }
                });
    }

    /** For each master's index, a lock name whose keys that master serves. */
    private static Map<Integer, String> aNamePerMaster() {
        Map<Integer, String> names = new TreeMap<>();
        for (int i = 0; names.size() < cluster.nodes().size(); i++) {
            String name = "tls:job:" + i;
            names.putIfAbsent(cluster.firstMasterOf(SlotHash.getSlot(KEYS.lock(name))), name);
        }
        return names;
    }
}
