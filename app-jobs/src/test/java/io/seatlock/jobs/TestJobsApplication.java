package io.seatlock.jobs;

import io.seatlock.localservers.DevServers;
import io.seatlock.lock.redis.RedisLockClient;
import org.springframework.boot.SpringApplication;

/**
 * app-jobs for development: {@code ./mvnw -pl app-jobs spring-boot:test-run}. Whatever is not configured
 * (datasource, Redis) comes from {@link DevServers}; the production {@link JobsApplication} never starts a
 * server of its own.
 */
public final class TestJobsApplication {

    private TestJobsApplication() {
    }

    public static void main(String[] args) {
        // Demo payments, so the operations page shows captures within a minute; -Djobs.demo.enabled=false stops them.
        System.setProperty("jobs.demo.enabled", System.getProperty("jobs.demo.enabled", "true"));
        DevServers.run(SpringApplication.from(JobsApplication::main).with(DevServers.class), args, "The operations page",
                app -> app.getBean(RedisLockClient.class).settings().instanceId());
    }
}
