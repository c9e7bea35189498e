package io.seatlock.lock.autoconfigure;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.micrometer.LockObservations;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** With an ObservationRegistry, the lock beans get is observed, and so is each leader term; without one, nothing. */
class SeatlockObservationTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("SeatlockObservationTest");

    private final List<String> started = new CopyOnWriteArrayList<>();
    private final List<String> stopped = new CopyOnWriteArrayList<>();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeatlockLockAutoConfiguration.class,
                    SeatlockLeaderAutoConfiguration.class, SeatlockObservationAutoConfiguration.class))
            .withPropertyValues("seatlock.lock.redis-url=redis://127.0.0.1:" + servers.redis().port(),
                    "seatlock.lock.key-prefix=" + servers.keyPrefix(), "seatlock.lock.instance-id=replica-9");

    private ObservationRegistry recording() {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onStart(Observation.Context context) {
                started.add(context.getName());
            }

            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context.getName() + ":" + (context.getLowCardinalityKeyValue(LockObservations.OUTCOME) == null
                        ? "-" : context.getLowCardinalityKeyValue(LockObservations.OUTCOME).getValue()));
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        return registry;
    }

    @Test
    void withARegistryTheLockBeansGetIsObservedAndSoIsEachLeaderTerm() {
        runner.withBean(ObservationRegistry.class, this::recording)
                .withPropertyValues("seatlock.leader.groups.ops.lease=3s", "seatlock.leader.groups.ops.retry=100ms")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(RedisLockClient.class);
                    DistributedLock lock = context.getBean(DistributedLock.class);
                    assertThat(lock).isNotInstanceOf(RedisLockClient.class);
                    lock.tryAcquire("report:daily", Duration.ofSeconds(30), OverlapImpact.WASTED_WORK).orElseThrow()
                            .release();
                    await().atMost(Duration.ofSeconds(10)).until(() -> context.getBean(LeaderElections.class)
                            .get("ops").isLeader());
                    await().atMost(Duration.ofSeconds(5)).until(() -> started.contains("seatlock.leader.term"));
                    assertThat(stopped).contains("seatlock.lock.acquire:acquired", "seatlock.lease:released");
                });
        assertThat(stopped).as("the term ends with the application").contains("seatlock.leader.term:-");
    }

    @Test
    void withoutARegistryTheLockIsTheStoresOwnAndNothingIsObserved() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(LockObservations.class);
            assertThat(context.getBean(DistributedLock.class)).isInstanceOf(RedisLockClient.class);
        });
    }
}
