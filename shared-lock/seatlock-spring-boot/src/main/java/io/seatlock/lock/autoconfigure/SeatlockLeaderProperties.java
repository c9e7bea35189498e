package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.leader.LeaderElections;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.util.Map;

/**
 * Leader election ({@code seatlock.leader.*}): one election per group.
 *
 * @param enabled   Whether to run the configured leader elections.
 * @param candidate This replica's name in every election. Defaults to seatlock.lock.instance-id.
 * @param groups    Leader groups by name, each with its lease (default 10s) and retry (default 1s), e.g.
 *                  seatlock.leader.groups.jobs.lease=10s.
 */
@ConfigurationProperties("seatlock.leader")
record SeatlockLeaderProperties(@DefaultValue("true") boolean enabled, @Nullable String candidate,
                                       @DefaultValue Map<String, LeaderElections.Term> groups) {
}
