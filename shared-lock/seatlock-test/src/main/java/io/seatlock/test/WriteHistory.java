package io.seatlock.test;

import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A checker for your own writes under a lock. Record each attempt (who wrote which resource with which
 * fencing token, and what the caller was told), then what your storage holds afterwards, and
 * {@link #verify()} states the verdict:
 * <ol>
 *   <li>at most one effective writer per resource (per job slot): storage holds at most one, and at most
 *       one caller was told its write was done;</li>
 *   <li>no write with an older token accepted after a newer one, in the order storage applied them (a write
 *       without a token in between changes nothing);</li>
 *   <li>what callers were told is true: none told "done" for a write that is not in storage, none told "rejected"
 *       for one that is (a caller who was also told "done" or nothing certain by another attempt may own it).</li>
 * </ol>
 * A resource declared with {@link #sequence(String)} (a leader's ledger, many writers in turn) is held to
 * rules 2 and 3 only. On failure the message is the whole history as a timeline.
 *
 * <pre>{@code
 * WriteHistory history = new WriteHistory();
 * WriteHistory.Attempt lena = history.attempt("server-a", "seat 14C", tokenA);
 * ... lena.told(Outcome.REJECTED, "409 seat-taken");
 * history.stored("seat 14C", WriteHistory.write("server-b", tokenB));   // read back from your table
 * history.verify();
 * }</pre>
 */
public final class WriteHistory {

    /** What a caller was told about its write. */
    public enum Outcome {
        /** Told the write is done (201, "paid", "confirmed"). */
        CONFIRMED,
        /** Told the write did not happen (409, "just taken", a stale token refused). */
        REJECTED,
        /** Told nothing certain (a timeout, a cut link): the write may or may not be there. */
        UNKNOWN
    }

    /**
     * One write storage holds.
     *
     * @param writer who wrote it (the name given to {@link #attempt})
     * @param token  the fencing token it carried, or 0 if none
     */
    public record Write(String writer, long token) {
        /**
         * Checks the write.
         *
         * @param writer who wrote it (the name given to {@link #attempt})
         * @param token  the fencing token it carried, or 0 if none
         * @throws NullPointerException if {@code writer} is null: a verdict needs to know who wrote
         */
        public Write {
            java.util.Objects.requireNonNull(writer, "writer");
        }
    }

    private final long start = System.nanoTime();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<Attempt> attempts = new CopyOnWriteArrayList<>();
    private final Map<String, List<Write>> stored = new LinkedHashMap<>();
    private final Set<String> sequences = new LinkedHashSet<>();

    /** An empty history; its timeline starts now. */
    public WriteHistory() {
    }

    /**
     * A write storage holds.
     *
     * @param writer who wrote it
     * @param token  its fencing token, or 0
     * @return the write
     */
    public static Write write(String writer, long token) {
        return new Write(writer, token);
    }

    /**
     * Declares a resource that many writers write in turn (a leader's ledger): only the token order and the
     * truth of what callers were told are checked.
     *
     * @param resource the resource
     * @return this history
     */
    public WriteHistory sequence(String resource) {
        sequences.add(resource);
        return this;
    }

    /**
     * Records that {@code writer} is about to write {@code resource}.
     *
     * @param writer   who writes (a replica, a buyer)
     * @param resource what it writes (a seat, a job slot)
     * @param token    the fencing token or epoch it carries, or 0 if none
     * @return the attempt, to record what the caller was told
     */
    public Attempt attempt(String writer, String resource, long token) {
        Attempt attempt = new Attempt(writer, resource, token);
        attempts.add(attempt);
        event(writer + " writes " + resource + (token > 0 ? " with token " + token : ""));
        return attempt;
    }

    /**
     * Notes something that happened, for the timeline (a pause, an expiry).
     *
     * @param what the event
     * @return this history
     */
    public WriteHistory note(String what) {
        event(what);
        return this;
    }

    /**
     * Records what storage holds for {@code resource} after the run, in the order it applied the writes.
     *
     * @param resource the resource
     * @param writes   its writes; none if nothing was written
     * @return this history
     */
    public synchronized WriteHistory stored(String resource, Write... writes) {
        stored.put(resource, List.of(writes));
        event("storage holds for " + resource + ": " + (writes.length == 0 ? "nothing" : List.of(writes)));
        return this;
    }

    /**
     * Checks the three rules.
     *
     * @throws AssertionError naming each broken rule, followed by the timeline
     */
    public synchronized void verify() {
        List<String> violations = new ArrayList<>();
        Set<String> resources = new LinkedHashSet<>(stored.keySet());
        attempts.forEach(a -> resources.add(a.resource));
        for (String resource : resources) {
            List<Write> writes = stored.getOrDefault(resource, List.of());
            List<Attempt> confirmed = attempts.stream()
                    .filter(a -> a.resource.equals(resource) && a.outcome == Outcome.CONFIRMED).toList();
            if (!sequences.contains(resource)) {
                Set<String> writers = new LinkedHashSet<>();
                writes.forEach(w -> writers.add(w.writer()));
                if (writers.size() > 1) {
                    violations.add(resource + ": " + writers.size() + " effective writers " + writers);
                }
                if (confirmed.size() > 1) {
                    violations.add(resource + ": " + confirmed.size() + " callers were told it was theirs "
                            + confirmed.stream().map(a -> a.writer).toList());
                }
            }
            @Nullable Write newest = null;
            for (Write write : writes) {
                if (write.token() <= 0) {
                    continue;
                }
                if (newest != null && write.token() < newest.token()) {
                    violations.add(resource + ": " + write.writer() + "'s token " + write.token()
                            + " was accepted after the newer token " + newest.token() + " of " + newest.writer());
                } else {
                    newest = write;
                }
            }
            for (Attempt a : confirmed) {
                boolean there = writes.stream().anyMatch(w -> w.writer().equals(a.writer)
                        && (a.token == 0 || w.token() == 0 || w.token() == a.token));
                if (!there) {
                    violations.add(resource + ": " + a.writer + " was told its write was done, but storage does not hold it");
                }
            }
            rejectedButStored(resource, writes, violations);
        }
        if (!violations.isEmpty()) {
            throw new AssertionError("write history broke " + violations.size() + " rule(s):\n  - "
                    + String.join("\n  - ", violations) + "\n" + timeline());
        }
    }

    /**
     * A writer told "rejected" whose writes in storage outnumber its attempts told "done" or nothing certain: at least
     * one of them is the write its caller was told did not happen.
     */
    private void rejectedButStored(String resource, List<Write> writes, List<String> violations) {
        Set<String> rejected = new LinkedHashSet<>();
        attempts.stream().filter(a -> a.resource.equals(resource) && a.outcome == Outcome.REJECTED)
                .forEach(a -> rejected.add(a.writer));
        for (String writer : rejected) {
            long held = writes.stream().filter(w -> w.writer().equals(writer)).count();
            long mayHaveWritten = attempts.stream().filter(a -> a.resource.equals(resource) && a.writer.equals(writer)
                    && a.outcome != Outcome.REJECTED).count();
            if (held > mayHaveWritten) {
                violations.add(resource + ": " + writer + " was told its write did not happen, but storage holds it");
            }
        }
    }

    /**
     * The history so far, one line per event with milliseconds since it started.
     *
     * @return the timeline
     */
    public String timeline() {
        StringBuilder text = new StringBuilder("timeline:\n");
        events.forEach(e -> text.append("  ").append(e).append('\n'));
        return text.toString();
    }

    private void event(String what) {
        events.add(String.format("+%5d ms  %s", (System.nanoTime() - start) / 1_000_000, what));
    }

    /** One write attempt; record what its caller was told. */
    public final class Attempt {
        private final String writer;
        private final String resource;
        private final long token;
        private volatile Outcome outcome = Outcome.UNKNOWN;

        private Attempt(String writer, String resource, long token) {
            this.writer = writer;
            this.resource = resource;
            this.token = token;
        }

        /**
         * Records what the caller was told.
         *
         * @param told   the outcome
         * @param detail what exactly (a status code, a message)
         * @return this attempt
         */
        public Attempt told(Outcome told, String detail) {
            this.outcome = told;
            event(writer + " was told " + told + " for " + resource + " (" + detail + ")");
            return this;
        }
    }
}
