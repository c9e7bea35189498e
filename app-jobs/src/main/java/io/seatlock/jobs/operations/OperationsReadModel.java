package io.seatlock.jobs.operations;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.seatlock.jobs.operations.OperationsView.Fencing;
import io.seatlock.jobs.operations.OperationsView.JobRun;
import io.seatlock.jobs.operations.OperationsView.LeaderGroup;
import io.seatlock.jobs.operations.OperationsView.LeaderWrite;
import io.seatlock.jobs.operations.OperationsView.Migration;
import io.seatlock.jobs.operations.OperationsView.Payment;
import io.seatlock.jobs.operations.OperationsView.Payments;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.leader.LeaderElections;
import io.seatlock.lock.slots.JobSlots;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The operations page's read model: leaders and their epochs (from the library's elections and the leader ledger), job
 * runs (the library's slot records), payments, leader writes, fencing counts and the migration history.
 */
@Component
class OperationsReadModel {

    private static final int RECENT = 12;

    private final JdbcClient jdbc;
    private final DistributedLock lock;
    private final JobSlots slots;
    private final MeterRegistry meters;
    private final ObjectProvider<LeaderElections> elections;
    private final ObjectProvider<Flyway> flyway;

    OperationsReadModel(JdbcClient jdbc, DistributedLock lock,
                        JobSlots slots, MeterRegistry meters, ObjectProvider<LeaderElections> elections,
                        ObjectProvider<Flyway> flyway) {
        this.jdbc = jdbc;
        this.lock = lock;
        this.slots = slots;
        this.meters = meters;
        this.elections = elections;
        this.flyway = flyway;
    }

    /** Everything the operations page shows, read now from the library, its lock's store, PostgreSQL and the meters. */
    OperationsView read() {
        return new OperationsView(slots.runner(), leaders(), jobRuns(), payments(), fencing(), migrations());
    }

    private List<LeaderGroup> leaders() {
        LeaderElections all = elections.getIfAvailable();
        if (all == null) {
            return List.of();
        }
        return all.all().stream().sorted(Comparator.comparing(LeaderElection::group)).map(election -> {
            String leader;
            Long leaseLeft;
            try {
                leader = election.leader().orElse(null);
                leaseLeft = leader == null ? null : lock.remainingTtl(election.lockName()).map(Duration::toMillis).orElse(null);
            } catch (LockUnavailableException e) {
                leader = "unknown";
                leaseLeft = null;
            }
            return new LeaderGroup(election.group(), leader, leaseLeft, newestEpoch(election), election.isLeader());
        }).toList();
    }

    /** The newest epoch a leader of the group wrote in: storage's word, not this replica's. */
    private Long newestEpoch(LeaderElection election) {
        return jdbc.sql("SELECT max(epoch) FROM leader_actions WHERE group_name = ?").param(election.group())
                .query(Long.class).optional().orElse(null);
    }

    private List<JobRun> jobRuns() {
        return slots.recent(RECENT).stream().map(run -> new JobRun(run.job(), utc(run.slot()), run.runner(),
                utc(run.startedAt()))).toList();
    }

    private static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private Payments payments() {
        record Totals(long pending, long captured, long capturedCents) {
        }
        Totals totals = jdbc.sql("""
                        SELECT count(*) FILTER (WHERE state = 'PENDING') AS pending,
                               count(*) FILTER (WHERE state = 'CAPTURED') AS captured,
                               coalesce(sum(amount_cents) FILTER (WHERE state = 'CAPTURED'), 0) AS captured_cents
                        FROM payments""").query(Totals.class).single();
        List<Payment> recent = jdbc.sql("""
                        SELECT id, amount_cents, state, captured_by, captured_slot, captured_at FROM payments
                        ORDER BY id DESC LIMIT :n""").param("n", RECENT).query(Payment.class).list();
        return new Payments(totals.pending(), totals.captured(), totals.capturedCents(), recent);
    }

    private Fencing fencing() {
        List<LeaderWrite> writes = jdbc.sql("""
                        SELECT group_name AS "group", epoch, holder, action, created_at AS at FROM leader_actions
                        ORDER BY id DESC LIMIT :n""").param("n", RECENT).query(LeaderWrite.class).list();
        return new Fencing(sum(meters.find("jobs.leader.writes").tag("outcome", "accepted")),
                sum(meters.find("seatlock.lock.fencing.rejections")), writes);
    }

    private static double sum(Search search) {
        return search.counters().stream().mapToDouble(c -> c.count()).sum();
    }

    private List<Migration> migrations() {
        Flyway f = flyway.getIfAvailable();
        if (f == null) {
            return List.of();
        }
        return Arrays.stream(f.info().all()).filter(m -> m.getState().isApplied())
                .sorted(Comparator.comparing(MigrationInfo::getInstalledRank).reversed())
                .map(m -> new Migration(m.getVersion() == null ? null : m.getVersion().getVersion(), m.getDescription(),
                        m.getType().name(), m.getState().getDisplayName(),
                        m.getInstalledOn() == null ? null : m.getInstalledOn().toInstant().toString(), m.getExecutionTime()))
                .toList();
    }
}
