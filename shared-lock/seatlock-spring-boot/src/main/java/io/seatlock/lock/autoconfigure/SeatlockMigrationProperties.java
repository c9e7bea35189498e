package io.seatlock.lock.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The migration gate ({@code seatlock.migration.*}).
 *
 * @param enabled Whether Flyway runs behind the migration gate; when off, Flyway runs as Spring Boot runs it.
 * @param lockTtl Lease of the migration lock, renewed while migrating.
 * @param maxWait How long a replica waits for another one's migration before it fails to start.
 * @param timing  When the gate runs: before-beans (where Spring Boot runs Flyway, so every bean that reads
 *                the schema at start-up sees it current) or after-web-server (probes answer while a replica
 *                waits; only for applications with no bean that reads the schema while starting).
 * @param only    Migrate through the gate and exit instead of starting: exit code 0 when the schema is
 *                current (migrated here or by another replica), 1 when a migration or validation failed, 2
 *                when max-wait passed, 3 when the lock was lost while migrating.
 */
@ConfigurationProperties("seatlock.migration")
record SeatlockMigrationProperties(@DefaultValue("true") boolean enabled,
                                          @DefaultValue("30s") Duration lockTtl,
                                          @DefaultValue("5m") Duration maxWait,
                                          @DefaultValue("before-beans") Timing timing,
                                          @DefaultValue("false") boolean only) {

    /** When the migration gate runs during start-up. */
    public enum Timing {
        /** Where Spring Boot runs Flyway: before any bean that needs the schema (JPA, JDBC templates). */
        BEFORE_BEANS,
        /**
         * After the web server starts, so probes answer (readiness refusing traffic) while a replica waits;
         * beans that read the schema while the application starts would see it old.
         */
        AFTER_WEB_SERVER
    }
}
