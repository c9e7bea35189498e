package io.seatlock.lock.autoconfigure;

import io.seatlock.localservers.IsolatedServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each configuration mistake the library detects stops start-up with Spring Boot's report, a description and an
 * action, not a stack trace; and nothing is written to Redis.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureReportTest {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("StartupFailureReportTest");

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({SeatlockLockAutoConfiguration.class, SeatlockPostgresLockAutoConfiguration.class,
            SeatlockLeaderAutoConfiguration.class})
    static class App {
    }

    @Test
    void noRedisSettingsAtAll(CapturedOutput output) {
        startFails();
        assertReport(output, "No store is configured for the seatlock lock: no Redis (seatlock.lock.redis-url, "
                + "seatlock.lock.cluster-nodes or spring.data.redis.*) and no database (spring.datasource.url)",
                "Set seatlock.lock.redis-url (or spring.data.redis.host) to the Redis every replica shares, or "
                + "spring.datasource.url to the PostgreSQL, MySQL or MariaDB database they share");
    }

    @Test
    void noRedisSettingsWithRedisAsTheStore(CapturedOutput output) {
        startFails("seatlock.lock.store=redis");
        assertReport(output, "No Redis is configured for the seatlock lock",
                "Set seatlock.lock.redis-url (or seatlock.lock.cluster-nodes) to the Redis every replica shares");
    }

    @Test
    void aStoreThatIsNotOne(CapturedOutput output) {
        startFails("seatlock.lock.store=oracle");
        assertReport(output, "Invalid seatlock.lock.store: 'oracle'.",
                "Set seatlock.lock.store to redis, postgres or mysql.");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "seatlock.lock.redis-url=http://cache:6379 | Invalid seatlock.lock.redis-url: the Redis URL must start with redis://, rediss://, redis-sentinel:// or rediss-sentinel://, not 'http' | Give a URL such as redis://host:6379",
            "seatlock.lock.cluster-nodes=cache:notaport | Invalid seatlock.lock.cluster-nodes: a node must be host:port | Give each seed as host:port",
            "seatlock.lock.command-timeout=0s | Invalid seatlock.lock.command-timeout: the command timeout must be positive, was PT0S | Correct the property",
            "seatlock.lock.connect-timeout=-1s | Invalid seatlock.lock.connect-timeout: the connect timeout must be positive, was PT-1S | Correct the property",
            "seatlock.lock.cluster-refresh=0s | Invalid seatlock.lock.cluster-refresh: the cluster refresh period must be positive | Correct the property",
            "seatlock.lock.clock-drift-factor=0.7 | Invalid seatlock.lock: clock drift factor must be in [0, 0.5), was 0.7 | Correct the property",
            "seatlock.leader.groups.jobs.lease=0s | Invalid seatlock.leader.groups: lock ttl must be positive, was PT0S | Give each group a positive lease",
    })
    void aValueOutOfRange(String property, String description, String action, CapturedOutput output) {
        startFails("seatlock.lock.redis-url=redis://127.0.0.1:" + servers.redis().port(), property);
        assertReport(output, description, action);
    }

    @Test
    void tlsAskedOfAServerThatDoesNotSpeakIt(CapturedOutput output) {
        startFails("seatlock.lock.redis-url=rediss://127.0.0.1:" + servers.redis().port());
        assertReport(output, "but Redis at rediss://127.0.0.1:" + servers.redis().port()
                + " answers without TLS on that port", "Connect without TLS");
    }

    @Test
    void aClusterAskedOfASingleServer(CapturedOutput output) {
        startFails("seatlock.lock.cluster-nodes=127.0.0.1:" + servers.redis().port());
        assertReport(output, "but Redis Cluster seeds 127.0.0.1:" + servers.redis().port()
                + " is a server without cluster support",
                "Use seatlock.lock.redis-url (or spring.data.redis.host) for a single server");
    }

    @Test
    void aRenamedPropertyIsNamedWithItsReplacement(CapturedOutput output) {
        startFails("seatlock.lock.shedlock=false", "seatlock.jobs.enabled=false");
        assertThat(output.getOut()).contains("seatlock no longer reads the property seatlock.lock.shedlock, which is set "
                + "here and changes nothing: use seatlock.shedlock.enabled instead.")
                .contains("seatlock no longer reads the property seatlock.jobs.enabled, which is set here and changes "
                        + "nothing: use seatlock.slots.enabled instead.");
    }

    private static void startFails(String... properties) {
        List<String> all = new ArrayList<>(List.of("spring.main.banner-mode=off",
                "seatlock.lock.key-prefix=" + servers.keyPrefix(), "seatlock.lock.connect-timeout=5s"));
        all.addAll(List.of(properties));
        assertThatThrownBy(() -> new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties(all.toArray(String[]::new)).run().close()).isNotNull();
        List<String> written = servers.redis().with(r -> r.keys(servers.keyPrefix() + "*"));
        assertThat(written).as("nothing written").isEmpty();
    }

    private static void assertReport(CapturedOutput output, String description, String action) {
        String out = output.getOut();
        assertThat(out).contains("APPLICATION FAILED TO START").contains("Description:").contains(description)
                .contains("Action:").contains(action).doesNotContain("Application run failed");
        int report = out.indexOf("APPLICATION FAILED TO START");
        int descriptionAt = out.indexOf("Description:", report);
        int actionAt = out.indexOf("Action:", descriptionAt);
        assertThat(out.substring(descriptionAt, actionAt)).as("the report's description").contains(description);
        assertThat(out.substring(actionAt)).as("the report's action").contains(action);
    }
}
