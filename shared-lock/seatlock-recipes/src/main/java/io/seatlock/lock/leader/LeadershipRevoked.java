package io.seatlock.lock.leader;

import io.seatlock.lock.FencingToken;

/** Published as a Spring event: {@code candidate} no longer leads {@code group} (its term was {@code epoch}). */
public record LeadershipRevoked(String group, String candidate, FencingToken epoch) {
}
