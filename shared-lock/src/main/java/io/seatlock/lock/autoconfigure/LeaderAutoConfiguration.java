package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

import java.util.LinkedHashMap;
import java.util.Map;

/** One leader election per {@code seatlock.leader.groups.<name>}, on whichever {@link DistributedLock} the app has. */
@AutoConfiguration(after = SharedLockAutoConfiguration.class)
@ConditionalOnBean(DistributedLock.class)
@ConditionalOnBooleanProperty(name = "seatlock.leader.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LeaderProperties.class)
public class LeaderAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LeaderElections leaderElections(DistributedLock lock, LeaderProperties properties, ApplicationEventPublisher events) {
        String candidate = properties.candidate() != null ? properties.candidate()
                : lock instanceof RedisLockClient redis ? redis.settings().instanceId()
                : RedisLockSettings.defaults().instanceId();
        Map<String, LeaderElections.Term> groups = new LinkedHashMap<>();
        properties.groups().forEach((name, g) -> groups.put(name, new LeaderElections.Term(g.lease(), g.retry())));
        return new LeaderElections(lock, candidate, groups, events);
    }
}
