package io.seatlock.lock.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.migration.MigrationGate;
import org.flywaydb.core.Flyway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/** Puts Flyway behind the migration gate when the app has Flyway and a {@link DistributedLock}. */
@AutoConfiguration(after = SharedLockAutoConfiguration.class, before = FlywayAutoConfiguration.class)
@ConditionalOnClass({Flyway.class, FlywayMigrationStrategy.class})
@ConditionalOnBean(DistributedLock.class)
@ConditionalOnBooleanProperty(name = "seatlock.migration.enabled", matchIfMissing = true)
@EnableConfigurationProperties(MigrationProperties.class)
public class MigrationGateAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(FlywayMigrationStrategy.class)
    MigrationGate migrationGate(DistributedLock lock, MigrationProperties properties, ApplicationEventPublisher events,
                                ObjectProvider<MeterRegistry> meters) {
        return new MigrationGate(lock, properties.lockTtl(), properties.maxWait(), events, result -> meters.ifAvailable(
                registry -> registry.counter("seatlock.migrations.executed").increment(result.migrationsExecuted)));
    }
}
