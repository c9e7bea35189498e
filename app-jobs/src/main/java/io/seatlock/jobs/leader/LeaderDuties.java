package io.seatlock.jobs.leader;

import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.jobs.JobsProperties;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.leader.LeaderElections;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Work only the leader does (here: a periodic rebalance record). Each write carries the epoch; a leader
 * that paused past its lease and writes late is refused by storage, counted, and steps down.
 */
@Component
@ConditionalOnBooleanProperty(name = "seatlock.leader.enabled", matchIfMissing = true)
class LeaderDuties {

    private final LeaderElection election;
    private final LeaderLedger ledger;
    private final MeterRegistry meters;

    LeaderDuties(LeaderElections elections, LeaderLedger ledger, MeterRegistry meters, JobsProperties properties) {
        this.election = elections.get(properties.leader().group());
        this.ledger = ledger;
        this.meters = meters;
    }

    @Scheduled(fixedDelayString = "#{@'" + JobsProperties.BEAN + "'.leader().dutyInterval()}")
    void rebalance() {
        try {
            if (ledger.record(election, "rebalance")) {
                meters.counter("jobs.leader.writes", "outcome", "accepted").increment();
            }
        } catch (StaleFencingTokenException e) {
            meters.counter("jobs.leader.writes", "outcome", "rejected").increment(); // it has stepped down already
        }
    }
}
