-- shared-lock: one row per (job, scheduled slot) (io.seatlock.lock.slots.JobSlots). A replica that slips
-- past the lock, fires late after a pause, or whose clock is off claims the same slot and does nothing.
-- Add classpath:db/seatlock to spring.flyway.locations, or run this file yourself. Idempotent.
CREATE TABLE IF NOT EXISTS job_runs (
    job_name   text        NOT NULL,
    slot       timestamptz NOT NULL,
    runner     text        NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job_name, slot)
);
