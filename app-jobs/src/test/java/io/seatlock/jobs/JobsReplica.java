package io.seatlock.jobs;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.Map;

/** An app-jobs replica in the test's JVM, its properties given as command-line arguments (above application.yml). */
public final class JobsReplica {

    private JobsReplica() {
    }

    public static ConfigurableApplicationContext start(Map<String, String> properties) {
        return start(new SpringApplicationBuilder(JobsApplication.class), properties);
    }

    /** {@code app}: {@link JobsApplication} with whatever the test adds to it. */
    public static ConfigurableApplicationContext start(SpringApplicationBuilder app, Map<String, String> properties) {
        return app.run(properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new));
    }

    /** The port a replica started with {@code server.port=0} listens on. */
    public static int port(ConfigurableApplicationContext replica) {
        return Integer.parseInt(replica.getEnvironment().getRequiredProperty("local.server.port"));
    }
}
