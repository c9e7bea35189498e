package io.seatlock.lock.autoconfigure;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.leader.LeadershipGranted;
import io.seatlock.lock.leader.LeadershipRevoked;
import io.seatlock.lock.micrometer.LockGroups;
import io.seatlock.lock.micrometer.LockObservationConvention;
import io.seatlock.lock.micrometer.LockObservations;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.context.event.EventListener;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Micrometer Observations of the lock, when the application has an {@link ObservationRegistry} (Spring Boot makes
 * one with Actuator): {@link LockObservations}, its listener (which the lock this library makes hears, as it hears
 * every {@link LockListener} bean), that lock wrapped as the primary {@link DistributedLock} (the one beans get, the
 * ShedLock provider, elections and the gate included), and each leader term as a long task ({@value #LEADER_TERM}: the
 * group; the candidate, a per-process name, and the epoch as high-cardinality keys). Without a registry, nothing.
 */
@AutoConfiguration(afterName = {"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"},
        after = {SeatlockMetricsAutoConfiguration.class, SeatlockLockAutoConfiguration.class,
                SeatlockPostgresLockAutoConfiguration.class, SeatlockMySqlLockAutoConfiguration.class})
@ConditionalOnClass({LockObservations.class, ObservationRegistry.class})
@ConditionalOnBean(ObservationRegistry.class)
public class SeatlockObservationAutoConfiguration {

    /** Made by Spring Boot, which finds this class in the auto-configuration imports. */
    public SeatlockObservationAutoConfiguration() {
    }

    /** A leader's term, from grant to revocation. */
    static final String LEADER_TERM = "seatlock.leader.term";

    /**
     * The observations, named and tagged by the application's {@link LockObservationConvention} bean if it has one,
     * else by {@link io.seatlock.lock.micrometer.DefaultLockObservationConvention}; groups within the cap the metrics
     * share.
     */
    @Bean
    @ConditionalOnMissingBean
    LockObservations seatlockLockObservations(ObservationRegistry registry, ObjectProvider<LockGroups> groups,
                                              ObjectProvider<LockObservationConvention> convention) {
        return new LockObservations(registry, groups.getIfAvailable(LockGroups::new), convention.getIfAvailable());
    }

    @Bean
    LockListener seatlockObservingListener(LockObservations observations) {
        return observations.listener();
    }

    /** Only the lock this library made: a lock of the application's own is the application's to observe. */
    @Bean
    @Primary
    @ConditionalOnBean(ReplicaLocks.class)
    DistributedLock seatlockObservedLock(ReplicaLocks ours, LockObservations observations) {
        return observations.wrap(ours.lock());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(LeadershipGranted.class)
    static class LeaderTerms {
        @Bean
        LeaderTermObservations seatlockLeaderTermObservations(ObservationRegistry registry) {
            return new LeaderTermObservations(registry);
        }
    }

    /** Starts a term's observation when this replica is granted a group, and stops it when the term ends. */
    static final class LeaderTermObservations {
        private final ObservationRegistry registry;
        private final Map<String, Observation> terms = new ConcurrentHashMap<>();

        LeaderTermObservations(ObservationRegistry registry) {
            this.registry = registry;
        }

        @EventListener
        void granted(LeadershipGranted granted) {
            Observation term = Observation.createNotStarted(LEADER_TERM, registry)
                    .contextualName("seatlock leader term " + granted.group())
                    .lowCardinalityKeyValue("seatlock.leader.group", granted.group())
                    .highCardinalityKeyValue("seatlock.leader.candidate", granted.candidate()) // host-pid: per process
                    .highCardinalityKeyValue("seatlock.leader.epoch", Long.toString(granted.epoch().value()))
                    .start();
            Observation previous = terms.put(granted.group(), term);
            if (previous != null) {
                previous.stop();
            }
        }

        @EventListener
        void revoked(LeadershipRevoked revoked) {
            Observation term = terms.remove(revoked.group());
            if (term != null) {
                term.stop();
            }
        }
    }
}
