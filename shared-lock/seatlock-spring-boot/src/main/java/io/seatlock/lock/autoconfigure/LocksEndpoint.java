package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.leader.LeaderElections;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import java.util.List;

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
    public LocksDescriptor locks() {
        List<HeldLease> held = lock == null ? List.of() : lock.held().get().stream()
                .map(lease -> new HeldLease(lease.name(), lease.fencingToken().value(), lease.validFor().toMillis(),
                        lease.isKeptAlive() ? "kept alive" : "not renewed", lease.impact().name()))
                .toList();
        List<LeaderGroup> groups = leaders == null ? List.of()
                : leaders.all().stream().map(LocksEndpoint::group).toList();
        return new LocksDescriptor(lock == null ? null : lock.instanceId(), held, groups);
    }

    private static LeaderGroup group(LeaderElection election) {
        return new LeaderGroup(election.group(), election.candidate(), election.isLeader(),
                election.epoch().map(epoch -> epoch.value()).orElse(null), election.remainingLease().toMillis(),
                leader(election));
    }

    private static @Nullable String leader(LeaderElection election) {
        try {
            return election.leader().orElse(null);
        } catch (LockUnavailableException e) {
            return LeaderGroup.LEADER_UNKNOWN;
        }
    }

    /**
     * The endpoint's answer.
     *
     * @param instance this instance's id, or null when this application has no lock of the library's wiring
     * @param held     the leases this instance holds now
     * @param leaders  each leader group of this instance
     */
    public record LocksDescriptor(@Nullable String instance, List<HeldLease> held, List<LeaderGroup> leaders)
            implements OperationResponseBody {
    }

    /**
     * One lease this instance holds.
     *
     * @param name           the lock's name
     * @param fencingToken   the grant's fencing token
     * @param validForMillis time left before the local deadline
     * @param renewal        {@code kept alive} while a watchdog renews it, else {@code not renewed}
     * @param impact         what an overlap would break: {@code BROKEN_PROMISE} or {@code WASTED_WORK}
     */
    public record HeldLease(String name, long fencingToken, long validForMillis, String renewal, String impact) {
    }

    /**
     * One leader group as this instance sees it.
     *
     * @param group                the group's name
     * @param candidate            this instance's name in it
     * @param thisReplicaLeads     whether this instance leads
     * @param epoch                this instance's epoch while it leads, else null
     * @param remainingLeaseMillis time left on this instance's term, 0 when it does not lead
     * @param leader               who leads, null for nobody, or {@value #LEADER_UNKNOWN} when the store cannot
     *                             be asked
     */
    public record LeaderGroup(String group, String candidate, boolean thisReplicaLeads, @Nullable Long epoch,
                              long remainingLeaseMillis, @Nullable String leader) {

        /** What {@code leader} says when the lock's store cannot be asked. */
        public static final String LEADER_UNKNOWN = "unknown: the lock's store is unavailable";
    }
}
