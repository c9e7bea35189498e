package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.shedlock.SeatlockLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * ShedLock's {@link LockProvider} on whichever {@link DistributedLock} the application has, when the
 * application has ShedLock; backs off on a {@code LockProvider} of the application's own.
 */
@AutoConfiguration(after = {SeatlockLockAutoConfiguration.class, SeatlockPostgresLockAutoConfiguration.class,
        SeatlockMySqlLockAutoConfiguration.class})
@ConditionalOnClass({LockProvider.class, SeatlockLockProvider.class})
@ConditionalOnBean(DistributedLock.class)
@ConditionalOnBooleanProperty(name = "seatlock.shedlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SeatlockShedLockProperties.class)
public class SeatlockShedLockAutoConfiguration {

    /** Made by Spring Boot, which finds this class in the auto-configuration imports. */
    public SeatlockShedLockAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean(LockProvider.class)
    SeatlockLockProvider seatlockLockProvider(DistributedLock lock) {
        return new SeatlockLockProvider(lock);
    }
}
