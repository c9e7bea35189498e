package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.leader.LeaderElections;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /actuator/locks}: what this instance holds now (name, fencing token, time left on the local
 * deadline, whether a watchdog renews it) and, per leader group, who leads, this replica's epoch and lease.
 * Exposed only when included ({@code management.endpoints.web.exposure.include=locks}).
 */
@Endpoint(id = "locks")
public class LocksEndpoint {

    private final @Nullable ReplicaLocks lock;
    private final @Nullable LeaderElections leaders;

    LocksEndpoint(@Nullable ReplicaLocks lock, @Nullable LeaderElections leaders) {
        this.lock = lock;
        this.leaders = leaders;
    }

    /**
     * What this instance holds and who leads each group.
     *
     * @return instance id, held leases and leader groups
     */
    @ReadOperation
    public Map<String, Object> locks() {
        Map<String, Object> view = new LinkedHashMap<>();
        if (lock != null) {
            view.put("instance", lock.instanceId());
            view.put("held", lock.held().get().stream().map(lease -> {
                Map<String, Object> l = new LinkedHashMap<>();
                l.put("name", lease.name());
                l.put("fencingToken", lease.fencingToken().value());
                l.put("validForMillis", lease.validFor().toMillis());
                l.put("renewal", lease.isKeptAlive() ? "kept alive" : "not renewed");
                l.put("impact", lease.impact().name());
                return l;
            }).toList());
        }
        view.put("leaders", leaders == null ? List.of() : leaders.all().stream().map(LocksEndpoint::group).toList());
        return view;
    }

    private static Map<String, Object> group(LeaderElection election) {
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("group", election.group());
        g.put("candidate", election.candidate());
        g.put("thisReplicaLeads", election.isLeader());
        election.epoch().ifPresent(epoch -> g.put("epoch", epoch.value()));
        g.put("remainingLeaseMillis", election.remainingLease().toMillis());
        try {
            g.put("leader", election.leader().orElse(null));
        } catch (LockUnavailableException e) {
            g.put("leader", "unknown: the lock's store is unavailable");
        }
        return g;
    }
}
