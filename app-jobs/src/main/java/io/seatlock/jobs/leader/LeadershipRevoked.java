package io.seatlock.jobs.leader;

import io.seatlock.lock.FencingToken;

/** Spring event: {@code candidate} stopped leading {@code group} (its term was {@code epoch}). */
public record LeadershipRevoked(String group, String candidate, FencingToken epoch) {
}
