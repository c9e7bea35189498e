package io.seatlock.seats;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/** Sells seats from several replicas; the lock keeps the crowd off a seat, PostgreSQL decides who gets it. */
@SpringBootApplication
@EnableScheduling
@ConfigurationPropertiesScan
public class SeatsApplication {

    public static void main(String[] args) {
        SpringApplication.run(SeatsApplication.class, args);
    }
}
