package com.example.replicas;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A Flyway application without Actuator (so without Micrometer): the migration gate must still work. */
@SpringBootApplication
public class ReplicasApplication {
}
