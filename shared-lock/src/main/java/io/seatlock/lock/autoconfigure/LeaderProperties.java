package io.seatlock.lock.autoconfigure;

import jakarta.validation.Valid;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.util.Map;

/**
 * Leader election ({@code seatlock.leader.*}): one election per group.
 *
 * @param enabled   switch every election off
 * @param candidate this replica's name in the election; defaults to the lock's instance id
 * @param groups    group name to its timing, e.g. {@code seatlock.leader.groups.jobs.lease=10s}
 */
@ConfigurationProperties("seatlock.leader")
@Validated
public record LeaderProperties(@DefaultValue("true") boolean enabled, String candidate,
                               @DefaultValue Map<String, @Valid Group> groups) {

    /**
     * @param lease how long a term lasts unless renewed (renewed at a third of it)
     * @param retry pause between attempts of a non-leader; must be shorter than the lease
     */
    public record Group(@DefaultValue("10s") Duration lease, @DefaultValue("1s") Duration retry) {
    }
}
