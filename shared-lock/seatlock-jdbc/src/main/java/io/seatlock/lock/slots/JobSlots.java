package io.seatlock.lock.slots;

import io.seatlock.lock.fencing.PostgresFence;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Once per slot: a durable record per (job, slot) in PostgreSQL ({@code job_runs}, DDL in
 * {@code classpath:db/seatlock/R__seatlock_job_runs.sql}) decides whether this run does the work. Use it
 * with ShedLock's {@code @SchedulerLock}, which keeps the crowd away; this record is the referee. Claim
 * inside the transaction of the job's own writes (it joins Spring's transaction), and a run that slipped
 * past the lock, or repeats a slot, does nothing and leaves nothing.
 */
public final class JobSlots {

    private final JdbcTemplate jdbc;
    private final String runner;
    private final String claimSql;
    private final String recentSql;

    /**
     * Job slots on the application's database.
     *
     * @param jdbc   the application's JdbcTemplate (claims join its transactions)
     * @param runner this replica's name, recorded with each slot it claims
     */
    public JobSlots(JdbcTemplate jdbc, String runner) {
        this(jdbc, runner, "job_runs");
    }

    /**
     * Job slots on a table of their own name (the columns of {@code R__seatlock_job_runs.sql}).
     *
     * @param jdbc   the application's JdbcTemplate (claims join its transactions)
     * @param runner this replica's name, recorded with each slot it claims
     * @param table  a plain SQL identifier, optionally schema-qualified
     */
    public JobSlots(JdbcTemplate jdbc, String runner, String table) {
        this.jdbc = Objects.requireNonNull(jdbc, "jdbc");
        this.runner = Objects.requireNonNull(runner, "runner");
        PostgresFence.requireTableName(table);
        this.claimSql = "INSERT INTO " + table + " (job_name, slot, runner) VALUES (?, ?, ?) "
                + "ON CONFLICT (job_name, slot) DO NOTHING";
        this.recentSql = "SELECT job_name, slot, runner, started_at FROM " + table
                + " ORDER BY slot DESC, job_name LIMIT ?";
    }

    /**
     * Claims one slot of one job.
     *
     * @param job  the job's name
     * @param slot the slot's instant (the run's scheduled fire time)
     * @return true if this caller owns {@code (job, slot)} now; false if some run already has it
     */
    public boolean claim(String job, Instant slot) {
        if (job == null || job.isBlank()) {
            throw new IllegalArgumentException("job name must not be blank");
        }
        Objects.requireNonNull(slot, "slot");
        return jdbc.update(claimSql, job, Timestamp.from(slot), runner) == 1;
    }

    /**
     * Claims the slot of the scheduled run on this thread (its cron fire time, see {@link ScheduledSlot}).
     *
     * @param job the job's name
     * @return true if this caller owns the slot now; false if some run already has it
     * @throws IllegalStateException outside a cron- or trigger-scheduled run: there is no slot to claim, and
     *                               "now" would name a different slot on every late or skewed replica
     */
    public boolean claimCurrent(String job) {
        return claim(job, currentSlot());
    }

    /**
     * The fire time of the scheduled run on this thread.
     *
     * @return the slot
     * @throws IllegalStateException outside a cron- or trigger-scheduled run
     */
    public Instant currentSlot() {
        return ScheduledSlot.current().orElseThrow(() -> new IllegalStateException(
                "not inside a cron- or trigger-scheduled run; pass the slot to claim(job, slot) explicitly"));
    }

    /**
     * One claimed slot.
     *
     * @param job       the job's name
     * @param slot      the slot (the run's scheduled fire time)
     * @param runner    the replica that claimed it
     * @param startedAt when it was claimed
     */
    public record SlotRun(String job, Instant slot, String runner, Instant startedAt) {
    }

    /**
     * The most recently scheduled slots claimed by any replica, newest first, for status pages.
     *
     * @param limit how many at most, not negative
     * @return the claimed slots
     * @throws IllegalArgumentException if {@code limit} is negative; nothing is asked of the database
     */
    public List<SlotRun> recent(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, was " + limit);
        }
        return jdbc.query(recentSql,
                (rs, i) -> new SlotRun(rs.getString(1), rs.getTimestamp(2).toInstant(), rs.getString(3),
                        rs.getTimestamp(4).toInstant()), limit);
    }

    /**
     * This replica's name in slot records.
     *
     * @return the runner
     */
    public String runner() {
        return runner;
    }
}
