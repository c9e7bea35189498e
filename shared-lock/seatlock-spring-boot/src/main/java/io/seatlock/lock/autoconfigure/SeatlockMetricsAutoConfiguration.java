package io.seatlock.lock.autoconfigure;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.micrometer.LockGroups;
import io.seatlock.lock.micrometer.LockObservations;
import io.seatlock.lock.spi.LockListeners;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The lock's metrics on either store, when Micrometer is on the class path: {@link MicrometerLockListener} (every
 * series of a group at zero from its first event, the groups the application declares from start-up), the
 * {@link LockGroups} cap it shares with the observations, and histogram buckets for the lock's timers, so that a
 * server aggregates quantiles across replicas.
 */
@AutoConfiguration(beforeName = {"io.seatlock.lock.autoconfigure.SeatlockLockAutoConfiguration",
        "io.seatlock.lock.autoconfigure.SeatlockPostgresLockAutoConfiguration",
        "io.seatlock.lock.autoconfigure.SeatlockMySqlLockAutoConfiguration"})
@ConditionalOnClass({DistributedLock.class, LockGroups.class, MeterRegistry.class})
@ConditionalOnBooleanProperty(name = "seatlock.lock.enabled", matchIfMissing = true)
public class SeatlockMetricsAutoConfiguration {

    /** Made by Spring Boot, which finds this class in the auto-configuration imports. */
    public SeatlockMetricsAutoConfiguration() {
    }

    /**
     * The buckets of the lock's timers (acquire waits, leases held, the observations' timers): from a hand-over's
     * millisecond to a leader's hour-long term, a dozen series per timer and group.
     */
    static final Duration[] BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofMinutes(1), Duration.ofMinutes(10),
            Duration.ofHours(1)};
    private static final double[] BUCKET_NANOS = Arrays.stream(BUCKETS).mapToDouble(Duration::toNanos).toArray();

    @Bean
    @ConditionalOnMissingBean
    LockGroups seatlockLockGroups() {
        return new LockGroups();
    }

    @Bean
    @ConditionalOnMissingBean
    MicrometerLockListener micrometerLockListener(ObjectProvider<MeterRegistry> registry, LockGroups groups,
                                                  Environment environment) {
        return new MicrometerLockListener(registry.getIfAvailable(SimpleMeterRegistry::new), groups,
                declaredGroups(environment, getClass().getClassLoader()));
    }

    /** Buckets for every timer of the lock: its own metrics' and its observations' (tagged with the lock's group). */
    @Bean
    MeterFilter seatlockTimerBuckets() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                boolean ours = id.getType() == Meter.Type.TIMER && (id.getName().startsWith("seatlock.")
                        || id.getTag(LockObservations.GROUP) != null);
                return ours ? DistributionStatisticConfig.builder().serviceLevelObjectives(BUCKET_NANOS).build()
                        .merge(config) : config;
            }
        };
    }

    /**
     * The groups whose series exist from start-up: {@code leader} when leader groups are configured, {@code migration}
     * when the migration gate runs; a lock the application takes itself has its series from its first attempt.
     */
    static List<String> declaredGroups(Environment environment, ClassLoader classLoader) {
        List<String> declared = new ArrayList<>();
        Binder binder = Binder.get(environment);
        boolean leaders = binder.bind("seatlock.leader.enabled", Boolean.class).orElse(true)
                && !binder.bind("seatlock.leader.groups", Bindable.mapOf(String.class, Object.class))
                .orElse(Map.of()).isEmpty();
        if (leaders && ClassUtils.isPresent("io.seatlock.lock.leader.LeaderElection", classLoader)) {
            declared.add(RecipeGroups.leader());
        }
        boolean gate = binder.bind("seatlock.migration.enabled", Boolean.class).orElse(true);
        if (gate && ClassUtils.isPresent("org.flywaydb.core.Flyway", classLoader)
                && ClassUtils.isPresent("io.seatlock.lock.migration.MigrationGate", classLoader)) {
            declared.add(RecipeGroups.migration());
        }
        return declared;
    }

    /** The recipes' groups, read from the recipes themselves; loaded only when they are on the class path. */
    private static final class RecipeGroups {
        static String leader() {
            return LockListeners.groupOf(io.seatlock.lock.leader.LeaderElection.lockNameOf("any"));
        }

        static String migration() {
            return LockListeners.groupOf(io.seatlock.lock.migration.MigrationGate.LOCK_NAME);
        }
    }
}
