package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.localservers.RedisCluster;
import io.seatlock.localservers.RedisServer;
import io.seatlock.test.FaultProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
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
     * at most (a read asks one node on Jedis, each node on Lettuce). On Lettuce each read comes on a connection opened
     * for it (the README's warning about short periods): the nodes count a connection for every read. On Jedis a read
     * asks a master on one of its pooled connections: at most one new connection to each master in all.
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
                    Counts before = counts();
                    AtomicReference<Counts> last = new AtomicReference<>(before);
                    AtomicInteger looks = new AtomicInteger();
                    await().atMost(Duration.ofMillis(4_500)).pollInterval(Duration.ofMillis(50))
                            .until(() -> {
                                last.set(counts());
                                looks.incrementAndGet();
                                return last.get().layoutReads() - before.layoutReads() >= 10;
                            });
                    Counts after = last.get();
                    long reads = after.layoutReads() - before.layoutReads();
                    long opened = after.connections() - before.connections()
                            - (long) looks.get() * OWN_CONNECTIONS_PER_NODE * cluster.nodes().size();
                    if (client.equals("lettuce")) {
                        assertThat(opened).as("connections the client opened while it read the layout %d times", reads)
                                .isGreaterThanOrEqualTo(reads - 3);
                    } else {
                        assertThat(opened).as("connections the client opened while it read the layout %d times", reads)
                                .isBetween(0L, (long) cluster.nodes().size());
                        assertThat(threadsNamed(JEDIS_REFRESH)).as("the Jedis transport's refresh, while open").isNotEmpty();
                    }
                });
        // the context closed the client: its refresh ends with it
        await().atMost(Duration.ofSeconds(10)).until(() -> threadsNamed(JEDIS_REFRESH).isEmpty());
    }

    private static final String JEDIS_REFRESH = "seatlock-jedis-cluster-refresh";

    private static List<Thread> threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.isAlive() && thread.getName().startsWith(prefix)).toList();
    }

    /**
     * Seeds that went dark (they accept connections and answer nothing, as an address in front of the cluster that
     * went away) hold up no reading of the layout: the client reads it from the nodes it knows, and sends a dark seed
     * nothing. Jedis' own refresh asked the seeds first every time, a command timeout for each: a reading every few
     * seconds instead of ten in 4.5 s.
     */
    @ParameterizedTest
    @ValueSource(strings = {"lettuce", "jedis"})
    void theLayoutIsReadFromTheNodesWhileTheSeedsAreDark(String client) throws Exception {
        List<FaultProxy> seeds = new ArrayList<>();
        try {
            for (RedisServer node : cluster.nodes()) {
                seeds.add(new FaultProxy("127.0.0.1", node.port()));
            }
            String nodes = seeds.stream().map(seed -> seed.host() + ":" + seed.port()).collect(Collectors.joining(","));
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(SeatlockLockAutoConfiguration.class))
                    .withPropertyValues("seatlock.lock.key-prefix=cluster-refresh-test:", "seatlock.lock.cluster-nodes=" + nodes,
                            "seatlock.lock.client-type=" + client, "seatlock.lock.cluster-refresh=100ms",
                            "seatlock.lock.command-timeout=1s")
                    .run(context -> {
                        RedisLockClient lock = context.getBean(RedisLockClient.class);
                        lock.tryAcquire("refresh:dark", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK).orElseThrow()
                                .release();
                        seeds.forEach(FaultProxy::blackhole);
                        long before = counts().layoutReads();

                        await().atMost(Duration.ofMillis(4_500)).pollInterval(Duration.ofMillis(50))
                                .until(() -> counts().layoutReads() - before >= 10);

                        assertThat(seeds).as("what the dark seeds were sent").allSatisfy(seed ->
                                assertThat(seed.stalledReads()).isZero());
                    });
        } finally {
            for (FaultProxy seed : seeds) {
                seed.close();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0s", "-1s"})
    void aRefreshPeriodThatIsNotPositiveStopsStartup(String period) {
        onTheCluster.withPropertyValues("seatlock.lock.cluster-refresh=" + period)
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("cluster refresh period must be positive"));
    }

    private record Counts(long layoutReads, long connections) {
    }

    /** Connections each look at the counts opens to each node itself: one for the commands, one for the connections. */
    private static final int OWN_CONNECTIONS_PER_NODE = 2;

    /**
     * Summed over the masters: CLUSTER subcommands answered (CLUSTER NODES, SLOTS, SHARDS: how each client reads the
     * layout) and connections accepted.
     */
    private static Counts counts() {
        long reads = 0;
        long connections = 0;
        for (RedisServer node : cluster.nodes()) {
            for (Map.Entry<String, Long> command : node.commandCalls().entrySet()) {
                if (command.getKey().equals("cluster") || command.getKey().startsWith("cluster|")) { // Redis 6, 7
                    reads += command.getValue();
                }
            }
            connections += node.connectionsReceived();
        }
        return new Counts(reads, connections);
    }
}
