package io.seatlock.jobs.leader;

import io.seatlock.lock.FencingToken;

/** Published when this candidate gains ({@code granted}) or loses leadership; the epoch fences its writes. */
public record LeadershipChanged(String group, String candidate, FencingToken epoch, boolean granted) {
}
