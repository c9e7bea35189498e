package io.seatlock.seats;

import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * GH-9: the production application never starts a server of its own; without settings it stops and names
 * the property to set (the development servers come only through {@link TestSeatsApplication}).
 */
@ExtendWith(OutputCaptureExtension.class)
class ProductionStartTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("ProductionStartTest");

    @Test
    void withoutADatasourceItFailsNamingTheProperty(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(SeatsApplication.class)
                .run("--server.port=0", "--spring.data.redis.host=127.0.0.1"))
                .hasStackTraceContaining("Failed to determine a suitable driver class");
        // Spring Boot's failure analysis, as the operator reads it
        assertThat(output).contains("Failed to configure a DataSource: 'url' attribute is not specified");
    }

    @Test
    void withoutRedisItFailsNamingTheProperty(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(SeatsApplication.class).run("--server.port=0",
                "--spring.datasource.url=" + servers.jdbcUrl(), "--spring.datasource.username=" + servers.postgres().user(),
                "--spring.datasource.password=" + servers.postgres().password()))
                .hasStackTraceContaining("No Redis is configured for the seatlock lock");
        // the library's failure analysis: what is wrong, and the property to set
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("No Redis is configured for the seatlock lock (seatlock.lock.redis-url")
                .contains("Set seatlock.lock.redis-url (or seatlock.lock.cluster-nodes) to the Redis every replica shares");
    }
}
