package io.seatlock.lock.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.migration.MigrationGate;
import io.seatlock.lock.spi.LockSpec;
import org.flywaydb.core.Flyway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.seatlock.lock.migration.MigrationGate.Passage;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Puts Flyway behind the migration gate when the application has Flyway and a {@link DistributedLock}, as the
 * {@code FlywayMigrationStrategy} of its Spring Boot line (3.5 or 4.x), unless it has one of its own.
 */
@AutoConfiguration(after = {SeatlockLockAutoConfiguration.class, SeatlockPostgresLockAutoConfiguration.class,
        SeatlockMySqlLockAutoConfiguration.class},
        beforeName = {"org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
                "org.springframework.boot.autoconfigure.flyway.FlywayAutoConfiguration"})
@ConditionalOnClass({Flyway.class, MigrationGate.class})
@ConditionalOnBean(DistributedLock.class)
@ConditionalOnBooleanProperty(name = "seatlock.migration.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SeatlockMigrationProperties.class)
public class SeatlockMigrationAutoConfiguration {

    /** Made by Spring Boot, which finds this class in the auto-configuration imports. */
    public SeatlockMigrationAutoConfiguration() {
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = Boot4.STRATEGY)
    static class Boot4 {
        static final String STRATEGY = "org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy";

        @Bean
        @ConditionalOnMissingBean(type = STRATEGY)
        Boot4MigrationGateStrategy migrationGate(DistributedLock lock, SeatlockMigrationProperties properties,
                                                 ApplicationEventPublisher events,
                                                 ObjectProvider<MigrationGateMetrics> metrics,
                                                 ObjectProvider<ObservationRegistry> observations) {
            return gate(lock, properties, events, metrics, observations, Boot4MigrationGateStrategy::new);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = Boot3.STRATEGY)
    static class Boot3 {
        static final String STRATEGY = "org.springframework.boot.autoconfigure.flyway.FlywayMigrationStrategy";

        @Bean
        @ConditionalOnMissingBean(type = STRATEGY)
        Boot3MigrationGateStrategy migrationGate(DistributedLock lock, SeatlockMigrationProperties properties,
                                                 ApplicationEventPublisher events,
                                                 ObjectProvider<MigrationGateMetrics> metrics,
                                                 ObjectProvider<ObservationRegistry> observations) {
            return gate(lock, properties, events, metrics, observations, Boot3MigrationGateStrategy::new);
        }
    }

    /** How a Boot line's strategy is made: {@link MigrationGateStrategy}'s constructor. */
    @FunctionalInterface
    interface GateStrategyMaker<S extends MigrationGateStrategy> {
        S make(MigrationGate gate, SeatlockMigrationProperties settings, ApplicationEventPublisher events, IntConsumer exit,
               ObservationRegistry observations, Supplier<@Nullable Passage> lastPassage);
    }

    static <S extends MigrationGateStrategy> S gate(DistributedLock lock, SeatlockMigrationProperties properties,
                                                     ApplicationEventPublisher events,
                                                     ObjectProvider<MigrationGateMetrics> metrics,
                                                     ObjectProvider<ObservationRegistry> observations,
                                                     GateStrategyMaker<S> maker) {
        String fix = "Give seatlock.migration.lock-ttl a positive duration (default 30s) and seatlock.migration.max-wait "
                + "one that is not negative (default 5m).";
        InvalidSeatlockConfigurationException.checked("seatlock.migration.lock-ttl", fix,
                () -> LockSpec.requireValidTtl(properties.lockTtl()));
        InvalidSeatlockConfigurationException.checked("seatlock.migration.max-wait", fix,
                () -> LockSpec.requireValidWait(properties.maxWait()));
        MigrationGateMetrics counter = metrics.getIfAvailable();
        AtomicReference<Passage> lastPassage = new AtomicReference<>();
        MigrationGate gate = new MigrationGate(lock, properties.lockTtl(), properties.maxWait(), passage -> {
            lastPassage.set(passage);
            if (counter != null) {
                counter.record(passage);
            }
        });
        return maker.make(gate, properties, events, code -> exit(events, code),
                observations.getIfAvailable(() -> ObservationRegistry.NOOP), lastPassage::get);
    }

    /**
     * Ends a migrate-only process. The application context is closed first, on this thread, which is refreshing it:
     * Spring Boot's shutdown hook then has nothing left to close. Left to the hook, Spring Framework 6.2's close waits
     * for the refresh this thread will never finish (it is in {@code System.exit}, waiting for the hook): a deadlock
     * seen on Spring Boot 3.5.
     */
    private static void exit(ApplicationEventPublisher context, int code) {
        if (context instanceof ConfigurableApplicationContext closable) {
            closable.close();
        }
        System.exit(code);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static class Metrics {
        @Bean
        MigrationGateMetrics migrationGateMetrics(ObjectProvider<MeterRegistry> registry) {
            return new MigrationGateMetrics(registry);
        }
    }
}
