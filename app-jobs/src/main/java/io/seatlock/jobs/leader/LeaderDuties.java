package io.seatlock.jobs.leader;

import io.micrometer.core.instrument.MeterRegistry;
import io.seatlock.jobs.JobsProperties;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.leader.LeaderElection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Work only the leader does (here: a periodic rebalance record). Each write carries the epoch; a leader
 * that paused past its lease and writes late is refused by storage, counted, and stops.
 */
@Component
@ConditionalOnBooleanProperty(name = "jobs.leader.enabled", matchIfMissing = true)
class LeaderDuties {

    private static final Logger log = LoggerFactory.getLogger(LeaderDuties.class);

    private final LeaderElection election;
    private final LeaderLedger ledger;
    private final MeterRegistry meters;
    private final String group;

    LeaderDuties(LeaderElection election, LeaderLedger ledger, MeterRegistry meters, JobsProperties properties) {
        this.election = election;
        this.ledger = ledger;
        this.meters = meters;
        this.group = properties.leader().group();
    }

    @Scheduled(fixedDelayString = "${jobs.leader.duty-interval:5s}")
    void rebalance() {
        election.epoch().ifPresent(epoch -> {
            try {
                ledger.record(group, epoch, election.candidate(), "rebalance");
                meters.counter("jobs.leader.writes", "outcome", "accepted").increment();
            } catch (StaleFencingTokenException e) {
                meters.counter("jobs.leader.writes", "outcome", "rejected").increment();
                log.warn("{} wrote as leader of epoch {} but a newer epoch exists; stepping down", election.candidate(), epoch);
                election.yieldLeadership();
            }
        });
    }
}
