package io.seatlock.lock.leader;

import io.seatlock.lock.FencingToken;

/**
 * Published as a Spring event: {@code candidate} leads {@code group} from now on, in {@code epoch}.
 *
 * @param group     the leader group
 * @param candidate this replica's name
 * @param epoch     the term's fencing token
 */
public record LeadershipGranted(String group, String candidate, FencingToken epoch) {
}
