package com.example.everypart;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.autoconfigure.SeatlockActuatorAutoConfiguration;
import io.seatlock.lock.autoconfigure.SeatlockJdbcAutoConfiguration;
import io.seatlock.lock.autoconfigure.SeatlockLeaderAutoConfiguration;
import io.seatlock.lock.autoconfigure.SeatlockLockAutoConfiguration;
import io.seatlock.lock.autoconfigure.SeatlockMigrationAutoConfiguration;
import io.seatlock.lock.autoconfigure.SeatlockPostgresLockAutoConfiguration;
import io.seatlock.lock.autoconfigure.SeatlockShedLockAutoConfiguration;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.shedlock.SeatlockLockProvider;
import io.seatlock.test.InMemoryLock;
import io.seatlock.test.ManualClock;
import net.javacrumbs.shedlock.core.LockProvider;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.lang.reflect.Proxy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configuration as an application context runner sees it, on whichever Spring Boot line this project is built:
 * each part backs off on the bean a user would replace. Spring Boot's own auto-configurations are named for both lines
 * (4.x first, then 3.5); the one of the line at hand is used.
 */
class EveryPartBackOffTest {

    private static final String FLYWAY_STRATEGY_4 = "org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy";
    private static final String FLYWAY_STRATEGY_35 = "org.springframework.boot.autoconfigure.flyway.FlywayMigrationStrategy";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    line("org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
                            "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration"),
                    line("org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
                            "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration"),
                    line("org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration",
                            "org.springframework.boot.autoconfigure.jdbc.JdbcTemplateAutoConfiguration"),
                    line("org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
                            "org.springframework.boot.autoconfigure.flyway.FlywayAutoConfiguration"),
                    SeatlockLockAutoConfiguration.class, SeatlockPostgresLockAutoConfiguration.class,
                    SeatlockJdbcAutoConfiguration.class, SeatlockShedLockAutoConfiguration.class,
                    SeatlockLeaderAutoConfiguration.class, SeatlockMigrationAutoConfiguration.class,
                    SeatlockActuatorAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.url=" + System.getenv("SPRING_DATA_REDIS_URL"),
                    "seatlock.lock.key-prefix=" + System.getenv("SEATLOCK_LOCK_KEY_PREFIX"),
                    "spring.datasource.url=" + System.getenv("SPRING_DATASOURCE_URL"),
                    "spring.datasource.username=" + System.getenv("SPRING_DATASOURCE_USERNAME"),
                    "spring.datasource.password=" + System.getenv("SPRING_DATASOURCE_PASSWORD"),
                    "spring.flyway.enabled=false", "seatlock.leader.groups.ledger.lease=3s");

    @Test
    void theLockOnSpringsRedisWithEveryPartOnIt() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(DistributedLock.class).hasBean("seatlockHealthIndicator");
            assertThat(context.getBean(DistributedLock.class).getClass().getSimpleName()).isEqualTo("RedisLockClient");
            assertThat(context.getBean(LockProvider.class)).isInstanceOf(SeatlockLockProvider.class);
            assertThat(context.getBean(LeaderElections.class).get("ledger")).isNotNull();
            assertThat(context.getBeansOfType(strategyType())).as("the migration gate as the line's strategy").hasSize(1);
        });
    }

    @Test
    void aLockOfTheApplicationsOwnReplacesTheLockAndTheOtherPartsSitOnIt() {
        InMemoryLock own = new InMemoryLock(new ManualClock(), "own");
        runner.withBean(DistributedLock.class, () -> own).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(DistributedLock.class).doesNotHaveBean("seatlockHealthIndicator");
            assertThat(context.getBean(DistributedLock.class)).isSameAs(own);
            assertThat(context.getBean(LockProvider.class)).isInstanceOf(SeatlockLockProvider.class);
            assertThat(context.getBeansOfType(strategyType())).hasSize(1);
        });
    }

    @Test
    @SuppressWarnings("unchecked") // the line's strategy type, known only at run time; the bean is declared as one
    void aFlywayStrategyOfTheApplicationsOwnTurnsTheGateOff() {
        Class<Object> strategy = (Class<Object>) strategyType();
        Object own = Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {strategy},
                (proxy, method, args) -> method.getName().equals("toString") ? "own strategy" : null);
        runner.withBean("ownStrategy", strategy, () -> own).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeansOfType(strategy)).as("only the application's").containsOnlyKeys("ownStrategy");
        });
    }

    @Test
    void seatlockLockEnabledFalseRegistersNoLock() {
        runner.withPropertyValues("seatlock.lock.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DistributedLock.class));
    }

    /** This line's {@code FlywayMigrationStrategy}. */
    private static Class<?> strategyType() {
        return line(FLYWAY_STRATEGY_4, FLYWAY_STRATEGY_35);
    }

    /** The class of Spring Boot 4's name, or, on 3.5, of 3.5's. */
    private static Class<?> line(String boot4, String boot35) {
        try {
            return Class.forName(boot4);
        } catch (ClassNotFoundException notBoot4) {
            try {
                return Class.forName(boot35);
            } catch (ClassNotFoundException neither) {
                throw new AssertionError("neither " + boot4 + " nor " + boot35 + " is on the class path", neither);
            }
        }
    }
}
