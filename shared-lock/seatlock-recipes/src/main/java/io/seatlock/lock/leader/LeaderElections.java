package io.seatlock.lock.leader;

import io.seatlock.lock.DistributedLock;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * One {@link LeaderElection} per group, started and closed together. In a Spring Boot application the
 * auto-configuration makes one from {@code seatlock.leader.groups.<name>}, runs it with the application
 * context and publishes {@link LeadershipGranted} / {@link LeadershipRevoked} events.
 */
public final class LeaderElections implements AutoCloseable {

    private final Map<String, LeaderElection> byGroup;
    private volatile boolean running;

    /**
     * How one group campaigns; also what {@code seatlock.leader.groups.<name>} binds to.
     *
     * @param lease how long a term lasts unless renewed (renewed at a third of it); default 10 s
     * @param retry pause between campaign attempts of a non-leader; shorter than the lease; default 1 s
     */
    public record Term(@Nullable Duration lease, @Nullable Duration retry) {

        /** The default lease. */
        public static final Duration DEFAULT_LEASE = Duration.ofSeconds(10);
        /** The default retry. */
        public static final Duration DEFAULT_RETRY = Duration.ofSeconds(1);

        /**
         * Fills in the defaults.
         *
         * @param lease the lease, or null for {@link #DEFAULT_LEASE}
         * @param retry the retry, or null for {@link #DEFAULT_RETRY}
         */
        public Term {
            lease = lease != null ? lease : DEFAULT_LEASE;
            retry = retry != null ? retry : DEFAULT_RETRY;
        }
    }

    /**
     * Makes the elections; starts nothing.
     *
     * @param lock        the lock every replica shares
     * @param candidate   this replica's name in every election
     * @param groups      each group's timing, by group name
     * @param callbacksOf the callbacks of each group, by group name
     */
    public LeaderElections(DistributedLock lock, String candidate, Map<String, Term> groups,
                           Function<String, Candidate> callbacksOf) {
        Map<String, LeaderElection> elections = new LinkedHashMap<>();
        groups.forEach((group, term) -> elections.put(group,
                LeaderElection.forGroup(lock, group).candidate(candidate).lease(term.lease())
                        .retry(term.retry()).build(callbacksOf.apply(group))));
        this.byGroup = Collections.unmodifiableMap(elections);
    }

    /**
     * The election of one group.
     *
     * @param group the group's name
     * @return its election
     * @throws NoSuchElementException if no such group is configured
     */
    public LeaderElection get(String group) {
        LeaderElection election = byGroup.get(group);
        if (election == null) {
            throw new NoSuchElementException("no leader group '" + group + "' is configured; known: " + byGroup.keySet()
                    + " (set seatlock.leader.groups." + group + ".lease)");
        }
        return election;
    }

    /**
     * Every election.
     *
     * @return the elections, in configuration order
     */
    public Collection<LeaderElection> all() {
        return byGroup.values();
    }

    /** Starts campaigning in every group. */
    public void start() {
        byGroup.values().forEach(LeaderElection::start);
        running = true;
    }

    /**
     * Whether {@link #start()} ran and {@link #close()} has not.
     *
     * @return true while campaigning
     */
    public boolean isRunning() {
        return running;
    }

    /** Stops every election; a leader gives its term up. */
    @Override
    public void close() {
        running = false;
        byGroup.values().forEach(LeaderElection::close);
    }
}
