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
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** {@code /api/operations}: the data behind the operations page ({@code /}). Read-only. */
@RestController
class OperationsController {

    private static final int RECENT = 12;

    private final JdbcClient jdbc;
    private final DistributedLock lock;
    private final JobSlots slots;
    private final MeterRegistry meters;
    private final ObjectProvider<LeaderElections> elections;
    private final ObjectProvider<Flyway> flyway;

    OperationsController(JdbcClient jdbc, DistributedLock lock, JobSlots slots, MeterRegistry meters,
                         ObjectProvider<LeaderElections> elections, ObjectProvider<Flyway> flyway) {
        this.jdbc = jdbc;
        this.lock = lock;
        this.slots = slots;
        this.meters = meters;
        this.elections = elections;
        this.flyway = flyway;
    }

    @GetMapping("/api/operations")
    OperationsView operations() {
        return new OperationsView(slots.runner(), leaders(), jobRuns(), payments(), fencing(), migrations());
    }

    private List<LeaderGroup> leaders() {
        LeaderElections all = elections.getIfAvailable();
        if (all == null) {
            return List.of();
        }
        Map<String, Long> epochs = jdbc.sql("SELECT resource, token FROM lock_fences WHERE resource LIKE 'leader:%'")
                .query((rs, n) -> Map.entry(rs.getString(1), rs.getLong(2))).list().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
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
            return new LeaderGroup(election.group(), leader, leaseLeft, epochs.get(election.lockName()), election.isLeader());
        }).toList();
    }

    private List<JobRun> jobRuns() {
        return jdbc.sql("SELECT job_name AS job, slot, runner, started_at FROM job_runs ORDER BY slot DESC, job_name LIMIT :n")
                .param("n", RECENT).query(JobRun.class).list();
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
