package io.seatlock.seats;

import io.seatlock.localservers.DevServers;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.seats.demo.RaceDemo;
import org.springframework.boot.SpringApplication;

import java.util.List;

/**
 * app-seats for development: {@code ./mvnw -pl app-seats spring-boot:test-run}. Whatever is not configured
 * (datasource, Redis) comes from {@link DevServers}; the production {@link SeatsApplication} never starts a
 * server of its own.
 */
public final class TestSeatsApplication {

    private TestSeatsApplication() {
    }

    /** {@code --race-demo} replays the 14C story instead ({@link RaceDemo}). */
    public static void main(String[] args) throws Exception {
        if (List.of(args).contains("--race-demo")) {
            RaceDemo.run();
            return;
        }
        DevServers.run(SpringApplication.from(SeatsApplication::main).with(DevServers.class), args, "The seat map",
                app -> app.getBean(RedisLockClient.class).settings().instanceId());
    }
}
