package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.leader.Candidate;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.leader.LeadershipGranted;
import io.seatlock.lock.leader.LeadershipRevoked;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;


/**
 * One leader election per {@code seatlock.leader.groups.<name>}, on whichever {@link DistributedLock} the
 * application has, run with the application context; grants and revocations are published as
 * {@link LeadershipGranted} and {@link LeadershipRevoked} events.
 */
@AutoConfiguration(after = {SeatlockLockAutoConfiguration.class, SeatlockPostgresLockAutoConfiguration.class,
        SeatlockMySqlLockAutoConfiguration.class})
@ConditionalOnClass(LeaderElections.class)
@ConditionalOnBean(DistributedLock.class)
@ConditionalOnBooleanProperty(name = "seatlock.leader.enabled", matchIfMissing = true)
@EnableConfigurationProperties({SeatlockLeaderProperties.class, SeatlockLockProperties.class})
public class SeatlockLeaderAutoConfiguration {

    /** Made by Spring Boot, which finds this class in the auto-configuration imports. */
    public SeatlockLeaderAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    LeaderElections leaderElections(DistributedLock lock, SeatlockLeaderProperties properties,
                                    SeatlockLockProperties lockProperties, ApplicationEventPublisher events) {
        String candidate = properties.candidate() != null ? properties.candidate() : lockProperties.instanceIdOrDefault();
        return InvalidSeatlockConfigurationException.checked("seatlock.leader.groups", "Give each group a positive lease "
                + "(seatlock.leader.groups.<group>.lease) and retry below it, or leave them to their defaults (10s, 1s).",
                () -> new LeaderElections(lock, candidate, properties.groups(), group -> new Candidate() {
            @Override
            public void onGranted(FencingToken epoch) {
                events.publishEvent(new LeadershipGranted(group, candidate, epoch));
            }

            @Override
            public void onRevoked(FencingToken epoch) {
                events.publishEvent(new LeadershipRevoked(group, candidate, epoch));
            }
        }));
    }

    /** Campaigns while the context runs: after the migration gate, before the web server takes traffic. */
    @Bean
    SmartLifecycle leaderElectionsLifecycle(LeaderElections elections) {
        return new SmartLifecycle() {
            @Override
            public void start() {
                elections.start();
            }

            @Override
            public void stop() {
                elections.close();
            }

            @Override
            public boolean isRunning() {
                return elections.isRunning();
            }
        };
    }
}
