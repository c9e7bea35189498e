package io.seatlock.lock.autoconfigure;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * The migration gate ({@code seatlock.migration.*}).
 *
 * @param enabled switch the gate off (Flyway then runs as Spring Boot runs it)
 * @param lockTtl lease of the migration lock, renewed while migrating
 * @param maxWait how long a replica waits for another one's migration before it fails to start
 */
@ConfigurationProperties("seatlock.migration")
@Validated
public record MigrationProperties(@DefaultValue("true") boolean enabled,
                                  @DefaultValue("30s") @NotNull Duration lockTtl,
                                  @DefaultValue("5m") @NotNull Duration maxWait) {
}
