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
 */
@ConfigurationProperties("seatlock.migration")
public record SeatlockMigrationProperties(@DefaultValue("true") boolean enabled,
                                          @DefaultValue("30s") Duration lockTtl,
                                          @DefaultValue("5m") Duration maxWait) {
}
