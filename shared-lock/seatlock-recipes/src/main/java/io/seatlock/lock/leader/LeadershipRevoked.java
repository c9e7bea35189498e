package io.seatlock.lock.leader;

import io.seatlock.lock.FencingToken;

/**
 * Published as a Spring event: {@code candidate} no longer leads {@code group} (its term was {@code epoch}).
 *
 * @param group     the leader group
 * @param candidate this replica's name
 * @param epoch     the term's fencing token
 */
public record LeadershipRevoked(String group, String candidate, FencingToken epoch) {
}
