package io.seatlock.lock.leader;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.FencingToken;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * One {@link LeaderElection} per configured group ({@code seatlock.leader.groups.<name>}), started and
 * stopped with the application context. Each grant and revocation is published as a
 * {@link LeadershipGranted} / {@link LeadershipRevoked} event from the election's own callback thread.
 */
public final class LeaderElections implements SmartLifecycle {

    private final Map<String, LeaderElection> byGroup;
    private volatile boolean running;

    /**
     * How one group campaigns.
     *
     * @param lease how long a term lasts unless renewed (renewed at a third of it)
     * @param retry pause between campaign attempts of a non-leader; shorter than the lease
     */
    public record Term(Duration lease, Duration retry) {
    }

    public LeaderElections(DistributedLock lock, String candidate, Map<String, Term> groups,
                           ApplicationEventPublisher events) {
        Map<String, LeaderElection> elections = new LinkedHashMap<>();
        groups.forEach((group, term) -> elections.put(group, new LeaderElection(lock, group, candidate, term.lease(),
                term.retry(), new Candidate() {
                    @Override
                    public void onGranted(FencingToken epoch) {
                        events.publishEvent(new LeadershipGranted(group, candidate, epoch));
                    }

                    @Override
                    public void onRevoked(FencingToken epoch) {
                        events.publishEvent(new LeadershipRevoked(group, candidate, epoch));
                    }
                })));
        this.byGroup = Collections.unmodifiableMap(elections);
    }

    /** The election of {@code group}. */
    public LeaderElection get(String group) {
        LeaderElection election = byGroup.get(group);
        if (election == null) {
            throw new NoSuchElementException("no leader group '" + group + "' is configured; known: " + byGroup.keySet()
                    + " (set seatlock.leader.groups." + group + ".lease)");
        }
        return election;
    }

    public Collection<LeaderElection> all() {
        return byGroup.values();
    }

    @Override
    public void start() {
        byGroup.values().forEach(LeaderElection::start);
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        byGroup.values().forEach(LeaderElection::close);
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
