package io.seatlock.jobs.leader;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.leader.LeaderElection;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code /actuator/leader}: whether this replica leads, its epoch and the remaining lease (exposed only on request). */
@Endpoint(id = "leader")
public class LeaderEndpoint {

    private final LeaderElection election;
    private final DistributedLock lock;

    LeaderEndpoint(LeaderElection election, DistributedLock lock) {
        this.election = election;
        this.lock = lock;
    }

    @ReadOperation
    public Map<String, Object> leader() {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("candidate", election.candidate());
        view.put("leader", election.isLeader());
        election.epoch().ifPresent(e -> view.put("epoch", e.value()));
        view.put("remainingLeaseMillis", election.isLeader() ? election.remainingLease().toMillis()
                : lock.remainingTtl(election.lockName()).map(d -> d.toMillis()).orElse(0L));
        return view;
    }
}
