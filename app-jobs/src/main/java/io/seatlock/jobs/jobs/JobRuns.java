package io.seatlock.jobs.jobs;

import io.seatlock.jobs.JobsProperties;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The idempotent record of a job run: one row per (job, slot), enforced by the primary key. Claim the
 * slot in the same transaction as the job's writes, and a replica that slipped past the lock does
 * nothing.
 */
@Component
public class JobRuns {

    private final JdbcClient jdbc;
    private final String runner;

    JobRuns(JdbcClient jdbc, JobsProperties properties) {
        this.jdbc = jdbc;
        this.runner = properties.instanceId();
    }

    /** True if this caller owns the slot now; false if some run already has it. */
    public boolean claim(String job, Instant slot) {
        return jdbc.sql("""
                        INSERT INTO job_runs (job_name, slot, runner) VALUES (:job, :slot, :runner)
                        ON CONFLICT (job_name, slot) DO NOTHING""")
                .param("job", job).param("slot", OffsetDateTime.ofInstant(slot, ZoneOffset.UTC))
                .param("runner", runner).update() == 1;
    }
}
