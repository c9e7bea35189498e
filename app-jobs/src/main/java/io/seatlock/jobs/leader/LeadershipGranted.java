package io.seatlock.jobs.leader;

import io.seatlock.lock.FencingToken;

/** Spring event: {@code candidate} leads {@code group} in {@code epoch}. */
public record LeadershipGranted(String group, String candidate, FencingToken epoch) {
}
