package io.seatlock.jobs.leader;

import io.seatlock.jobs.JobsProperties;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.leader.Candidate;
import io.seatlock.lock.leader.LeaderElection;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Stands this replica for election (unless {@code jobs.leader.enabled=false}) and shows the result at /actuator/leader. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "jobs.leader.enabled", matchIfMissing = true)
class LeaderConfiguration {

    @Bean(initMethod = "start", destroyMethod = "close")
    LeaderElection leaderElection(DistributedLock lock, JobsProperties properties, ApplicationEventPublisher events) {
        JobsProperties.Leader leader = properties.leader();
        String me = properties.instanceId();
        return new LeaderElection(lock, leader.group(), me, leader.lease(), leader.retry(), new Candidate() {
            @Override
            public void onGranted(FencingToken epoch) {
                events.publishEvent(new LeadershipGranted(leader.group(), me, epoch));
            }

            @Override
            public void onRevoked(FencingToken epoch) {
                events.publishEvent(new LeadershipRevoked(leader.group(), me, epoch));
            }
        });
    }

    @Bean
    LeaderEndpoint leaderEndpoint(LeaderElection election, DistributedLock lock) {
        return new LeaderEndpoint(election, lock);
    }
}
