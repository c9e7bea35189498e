package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.localservers.RedisCluster;
import io.seatlock.localservers.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code seatlock.lock.cluster-refresh} reaches the transport: on a real three-master cluster, each client reads the
 * cluster's layout as often as asked, counted by the nodes themselves; a period that is not positive stops startup.
 */
class ClusterRefreshTest {

    private static RedisCluster cluster;
    private static ApplicationContextRunner onTheCluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = new RedisCluster();
        String nodes = cluster.seeds().stream().map(u -> u.getHost() + ":" + u.getPort()).collect(Collectors.joining(","));
        onTheCluster = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SeatlockLockAutoConfiguration.class))
                .withPropertyValues("seatlock.lock.key-prefix=cluster-refresh-test:", "seatlock.lock.cluster-nodes=" + nodes);
    }

    @AfterAll
    static void stop() throws Exception {
        cluster.close();
    }

    /**
     * At 100 ms, ten reads of the layout come well within 4.5 s, a time in which the default period (5 s) reads it once
     * at most (a read asks one node on Jedis, each node on Lettuce).
     */
    @ParameterizedTest
    @ValueSource(strings = {"lettuce", "jedis"})
    void theLayoutIsReadAgainAsOftenAsTheRefreshSays(String client) {
        onTheCluster.withPropertyValues("seatlock.lock.client-type=" + client, "seatlock.lock.cluster-refresh=100ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    RedisLockClient lock = context.getBean(RedisLockClient.class);
                    assertThat(lock.client()).isEqualTo(client);
                    try (LockLease lease = lock.tryAcquire("refresh:job", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK)
                            .orElseThrow()) {
                        assertThat(lease.fencingToken().value()).isPositive(); // connected, the layout read once
                    }
                    long before = layoutReads();
                    await().atMost(Duration.ofMillis(4_500)).pollInterval(Duration.ofMillis(50))
                            .until(() -> layoutReads() - before >= 10);
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"0s", "-1s"})
    void aRefreshPeriodThatIsNotPositiveStopsStartup(String period) {
        onTheCluster.withPropertyValues("seatlock.lock.cluster-refresh=" + period)
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("cluster refresh period must be positive"));
    }

    /** CLUSTER subcommands the masters have answered (CLUSTER NODES, SLOTS, SHARDS: how each client reads the layout). */
    private static long layoutReads() {
        long reads = 0;
        for (RedisServer node : cluster.nodes()) {
            for (Map.Entry<String, Long> command : node.commandCalls().entrySet()) {
                if (command.getKey().equals("cluster") || command.getKey().startsWith("cluster|")) { // Redis 6, 7
                    reads += command.getValue();
                }
            }
        }
        return reads;
    }
}
