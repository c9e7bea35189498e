package io.seatlock.lock.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** For implementations: what a failure is made of, for telling the user which of its parts is the one to act on. */
public final class Causes {

    private Causes() {
    }

    /**
     * The failure, its causes and the exceptions suppressed along the way, each once (a cycle ends the walk), the
     * failure first and nearer ones before farther ones.
     *
     * @param failure the failure
     * @return every part of it
     */
    public static Set<Throwable> of(Throwable failure) {
        Set<Throwable> seen = new LinkedHashSet<>();
        Deque<Throwable> next = new ArrayDeque<>(List.of(failure));
        while (!next.isEmpty()) {
            Throwable t = next.poll();
            if (seen.add(t)) {
                if (t.getCause() != null) {
                    next.add(t.getCause());
                }
                next.addAll(List.of(t.getSuppressed()));
            }
        }
        return seen;
    }
}
