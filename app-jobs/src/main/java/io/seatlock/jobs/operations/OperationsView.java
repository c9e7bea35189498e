package io.seatlock.jobs.operations;

import java.time.OffsetDateTime;
import java.util.List;

/**
 * What the operations page shows, as one replica sees it. Leader, lease and epoch come from the lock's store (Redis
 * or PostgreSQL) and the leader ledger, so every replica shows the same; the fencing counters are this replica's own.
 */
public record OperationsView(String replica, List<LeaderGroup> leaders, List<JobRun> jobRuns, Payments payments,
                             Fencing fencing, List<Migration> migrations) {

    /**
     * @param leader           who leads now, from the lock's store; null if nobody does, "unknown" if it cannot be asked
     * @param leaseLeftMillis  time left on the leader's lease in the lock's store; null if nobody leads or unknown
     * @param epoch            the newest epoch a leader of this group wrote in (the leader ledger); null before any
     * @param thisReplicaLeads whether the replica serving the page leads this group
     */
    public record LeaderGroup(String group, String leader, Long leaseLeftMillis, Long epoch, boolean thisReplicaLeads) {
    }

    public record JobRun(String job, OffsetDateTime slot, String runner, OffsetDateTime startedAt) {
    }

    public record Payments(long pending, long captured, long capturedCents, List<Payment> recent) {
    }

    public record Payment(long id, long amountCents, String state, String capturedBy, OffsetDateTime capturedSlot,
                          OffsetDateTime capturedAt) {
    }

    /**
     * @param acceptedHere leader writes this replica made that storage accepted, since it started
     * @param rejectedHere writes storage refused because a newer epoch existed (a paused leader's late write)
     * @param recentWrites the newest leader writes, each with the epoch it was made under
     */
    public record Fencing(double acceptedHere, double rejectedHere, List<LeaderWrite> recentWrites) {
    }

    public record LeaderWrite(String group, long epoch, String holder, String action, OffsetDateTime at) {
    }

    public record Migration(String version, String description, String type, String state, String installedOn,
                            Integer executionMillis) {
    }
}
