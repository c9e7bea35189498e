package io.seatlock.lock.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.Map;

/**
 * Leader election ({@code seatlock.leader.*}): one election per group.
 *
 * @param enabled   Whether to run the configured leader elections.
 * @param candidate This replica's name in every election. Defaults to seatlock.lock.instance-id.
 * @param groups    Leader groups by name, each with its lease and retry, e.g. seatlock.leader.groups.jobs.lease=10s.
 */
@ConfigurationProperties("seatlock.leader")
public record SeatlockLeaderProperties(@DefaultValue("true") boolean enabled, @Nullable String candidate,
                                       @DefaultValue Map<String, Group> groups) {

    /**
     * How one group campaigns.
     *
     * @param lease How long a term lasts unless renewed; renewed at a third of it.
     * @param retry Pause between campaign attempts of a non-leader; shorter than the lease.
     */
    public record Group(@DefaultValue("10s") Duration lease, @DefaultValue("1s") Duration retry) {
    }
}
