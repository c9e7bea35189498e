package com.example.replicas;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Flyway and JPA application without Actuator (so without Micrometer): the migration gate must still
 * work, and hand every bean that reads the schema at start-up a current one.
 */
@SpringBootApplication
public class ReplicasApplication {

    public static void main(String[] args) {
        SpringApplication.run(ReplicasApplication.class, args);
    }
}
