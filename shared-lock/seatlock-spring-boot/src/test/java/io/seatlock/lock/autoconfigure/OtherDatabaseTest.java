package io.seatlock.lock.autoconfigure;

import io.seatlock.localservers.IsolatedServers;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.lock.slots.JobSlots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An application whose database is none the library runs on (SQL Server here, by its URL alone: nothing connects)
 * gets no bean whose SQL is another database's: no fence, no job slots; the lock itself stays on Redis. Asking for a
 * database store on it stops start-up with a report that names the database and the supported ones, not its URL.
 */
@ExtendWith(OutputCaptureExtension.class)
class OtherDatabaseTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("OtherDatabaseTest");

    private static final String SQL_SERVER = "jdbc:sqlserver://127.0.0.1:1433;databaseName=never;password=marker-pw";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
                    DataRedisAutoConfiguration.class, SeatlockLockAutoConfiguration.class,
                    SeatlockPostgresLockAutoConfiguration.class, SeatlockMySqlLockAutoConfiguration.class,
                    SeatlockJdbcAutoConfiguration.class))
            // a driver class that loads, so that Boot makes the DataSource: nothing ever connects with it
            .withPropertyValues("spring.datasource.url=" + SQL_SERVER,
                    "spring.datasource.driver-class-name=org.mariadb.jdbc.Driver",
                    "spring.data.redis.host=" + servers.redis().host(), "spring.data.redis.port=" + servers.redis().port(),
                    "seatlock.lock.key-prefix=" + servers.keyPrefix());

    @Test
    void onAnotherDatabaseNoFenceAndNoJobSlotsAreRegisteredAndTheLockIsRedis() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(DistributedLock.class)
                    .doesNotHaveBean(Fence.class).doesNotHaveBean(JobSlots.class);
            assertThat(context.getBean(DistributedLock.class).getClass().getSimpleName()).isEqualTo("RedisLockClient");
        });
    }

    @Test
    void onPostgresqlBothAreThere() {
        runner.withPropertyValues("spring.datasource.url=" + servers.jdbcUrl(),
                        "spring.datasource.driver-class-name=org.postgresql.Driver",
                        "spring.datasource.username=" + servers.postgres().user(),
                        "spring.datasource.password=" + servers.postgres().password())
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(Fence.class).hasSingleBean(JobSlots.class));
    }

    @Test
    void aDatabaseStoreOnAnotherDatabaseIsAReportNamingItAndTheSupportedOnes() {
        for (String store : new String[] {"postgres", "mysql"}) {
            runner.withPropertyValues("seatlock.lock.store=" + store).run(context -> {
                assertThat(context).hasFailed();
                assertThat(new InvalidSeatlockConfigurationFailureAnalyzer().analyze(context.getStartupFailure())
                        .getDescription()).contains("spring.datasource.url) is sqlserver")
                        .contains("PostgreSQL, MySQL or MariaDB").doesNotContain("marker-pw");
            });
        }
    }

    /** An application that needs job slots on such a database gets Spring Boot's report, which names the reason. */
    @Test
    void anApplicationThatNeedsJobSlotsThereIsAReportNamingTheSupportedDatabases(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(NeedsJobSlots.class).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "spring.datasource.url=" + SQL_SERVER,
                        "spring.datasource.driver-class-name=org.mariadb.jdbc.Driver",
                        "spring.data.redis.host=" + servers.redis().host(),
                        "spring.data.redis.port=" + servers.redis().port(),
                        "seatlock.lock.key-prefix=" + servers.keyPrefix()).run().close()).isNotNull();
        assertThat(output.getOut()).contains("APPLICATION FAILED TO START").contains("needs a JobSlots")
                .contains("(spring.datasource.url) is sqlserver").contains("PostgreSQL, MySQL or MariaDB")
                .doesNotContain("marker-pw");
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
            DataRedisAutoConfiguration.class, SeatlockLockAutoConfiguration.class,
            SeatlockPostgresLockAutoConfiguration.class, SeatlockMySqlLockAutoConfiguration.class,
            SeatlockJdbcAutoConfiguration.class})
    static class NeedsJobSlots {
        @Bean
        String nightlyJob(JobSlots slots) {
            return "nightly";
        }
    }
}
