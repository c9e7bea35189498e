package io.seatlock.lock.slots;

import io.seatlock.lock.fencing.PostgresFence;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Once per slot: a durable record per (job, slot) in PostgreSQL, MySQL or MariaDB ({@code job_runs}, DDL in
 * {@code classpath:db/seatlock/R__seatlock_job_runs.sql}, or {@code classpath:db/seatlock-mysql/} for MySQL and
 * MariaDB, where slots are kept in UTC) decides whether this run does the work. Use it with ShedLock's
 * {@code @SchedulerLock}, which keeps the crowd away; this record is the referee. Claim inside the transaction of the
 * job's own writes (it joins Spring's transaction), and a run that slipped past the lock, or repeats a slot, does
 * nothing and leaves nothing. Which database it is, is read from the connection at the first claim; another database
 * is an {@link IllegalStateException} naming the supported ones. On MySQL and MariaDB a claim that meets another
 * claim of the same slot still in flight waits for it, and InnoDB may end one of two such waits as a deadlock,
 * rolling that transaction back (Spring's {@code CannotAcquireLockException}): nothing of it was written.
 */
public final class JobSlots {

    private final JdbcTemplate jdbc;
    private final String runner;
    private final String table;
    private final String recentSql;
    /** Whether the database is MySQL or MariaDB rather than PostgreSQL; null until the first claim asks. */
    private volatile @Nullable Boolean mySql;

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
        this.table = PostgresFence.requireTableName(table);
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
        if (!isMySql()) {
            return jdbc.update("INSERT INTO " + table + " (job_name, slot, runner) VALUES (?, ?, ?) "
                    + "ON CONFLICT (job_name, slot) DO NOTHING", job, Timestamp.from(slot), runner) == 1;
        }
        try {
            // a duplicate key rolls back this statement alone in InnoDB, so the caller's transaction goes on
            return jdbc.update("INSERT INTO " + table + " (job_name, slot, runner, started_at) "
                    + "VALUES (?, ?, ?, UTC_TIMESTAMP(6))", job, LocalDateTime.ofInstant(slot, ZoneOffset.UTC), runner) == 1;
        } catch (DuplicateKeyException taken) {
            return false;
        }
    }

    private boolean isMySql() {
        Boolean known = mySql;
        if (known == null) {
            String product = Objects.requireNonNull(jdbc.execute((ConnectionCallback<String>) c ->
                    c.getMetaData().getDatabaseProductName() + " " + c.getMetaData().getDatabaseProductVersion()))
                    .toLowerCase(Locale.ROOT);
            if (product.contains("postgresql")) {
                known = false;
            } else if (product.contains("mysql") || product.contains("mariadb")) {
                known = true;
            } else {
                throw new IllegalStateException("job slots run on PostgreSQL, MySQL or MariaDB; this database is "
                        + product);
            }
            mySql = known;
        }
        return known;
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
        if (isMySql()) {
            return jdbc.query(recentSql, (rs, i) -> new SlotRun(rs.getString(1),
                    rs.getObject(2, LocalDateTime.class).toInstant(ZoneOffset.UTC), rs.getString(3),
                    rs.getObject(4, LocalDateTime.class).toInstant(ZoneOffset.UTC)), limit);
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
