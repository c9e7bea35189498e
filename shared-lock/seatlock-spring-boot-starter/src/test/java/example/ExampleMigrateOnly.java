package example;

import org.springframework.boot.SpringApplication;

/** {@link ExampleApplication} as a process of its own, as a deploy pipeline starts a replica. */
public final class ExampleMigrateOnly {

    private ExampleMigrateOnly() {
    }

    public static void main(String[] args) {
        SpringApplication.run(ExampleApplication.class, args);
    }
}
