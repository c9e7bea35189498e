package io.seatlock.seats;

import io.seatlock.localservers.DevServers;
import org.springframework.boot.SpringApplication;

/**
 * app-seats for development: {@code ./mvnw -pl app-seats spring-boot:test-run}. Whatever is not configured
 * (datasource, Redis) comes from {@link DevServers}; the production {@link SeatsApplication} never starts a
 * server of its own.
 */
public final class TestSeatsApplication {

    private TestSeatsApplication() {
    }

    public static void main(String[] args) {
        SpringApplication.from(SeatsApplication::main).with(DevServers.class).run(args);
    }
}
