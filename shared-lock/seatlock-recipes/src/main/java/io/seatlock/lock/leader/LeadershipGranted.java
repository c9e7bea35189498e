package io.seatlock.lock.leader;

import io.seatlock.lock.FencingToken;

/** Published as a Spring event: {@code candidate} leads {@code group} from now on, in {@code epoch}. */
public record LeadershipGranted(String group, String candidate, FencingToken epoch) {
}
