-- shared-lock: one row per (job, scheduled slot) on MySQL or MariaDB (io.seatlock.lock.slots.JobSlots). A replica that
-- slips past the lock, fires late after a pause, or whose clock is off claims the same slot and does nothing. Slots
-- are kept in UTC. Add classpath:db/seatlock-mysql to spring.flyway.locations, or run this file yourself. Idempotent.
CREATE TABLE IF NOT EXISTS job_runs (
    job_name   VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    slot       DATETIME(6)  NOT NULL,
    runner     VARCHAR(255) NOT NULL,
    started_at DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    PRIMARY KEY (job_name, slot)
) ENGINE = InnoDB;
