package io.seatlock.lock.autoconfigure;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.util.List;

/**
 * Settings of the shared lock ({@code seatlock.lock.*}).
 *
 * @param enabled          switch the lock beans off entirely
 * @param keyPrefix        put before every Redis key; give each app or test its own
 * @param instanceId       readable part of owner tokens; defaults to the host name
 * @param redisUrl         e.g. {@code rediss://user:secret@redis:6380}; when unset, Spring's
 *                         {@code spring.data.redis.*} connection is used
 * @param clusterNodes     {@code host:port} seeds of a Redis Cluster; wins over both of the above
 * @param commandTimeout   longest wait for Redis before a typed {@code LockUnavailableException}
 * @param clockDriftFactor share of each TTL kept as the local validity safety margin
 * @param minSafetyMargin  smallest local validity safety margin
 * @param minBackoff       first pause between attempts of a blocking acquire
 * @param maxBackoff       longest pause between attempts of a blocking acquire
 * @param shedlock         whether to register the ShedLock provider when ShedLock is on the class path
 */
@ConfigurationProperties("seatlock.lock")
@Validated
public record SharedLockProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("seatlock:") @NotNull @Pattern(regexp = "[^{}]*", message = "must not contain braces")
        String keyPrefix,
        String instanceId,
        String redisUrl,
        @DefaultValue List<String> clusterNodes,
        @DefaultValue("2s") @NotNull Duration commandTimeout,
        @DefaultValue("0.01") @DecimalMin("0.0") @DecimalMax("0.49") double clockDriftFactor,
        @DefaultValue("1ms") @NotNull Duration minSafetyMargin,
        @DefaultValue("10ms") @NotNull Duration minBackoff,
        @DefaultValue("200ms") @NotNull Duration maxBackoff,
        @DefaultValue("true") boolean shedlock) {
}
