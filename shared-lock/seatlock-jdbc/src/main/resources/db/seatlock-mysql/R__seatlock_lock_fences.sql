-- shared-lock: the storage side of fencing on MySQL or MariaDB (io.seatlock.lock.fencing.MySqlFence).
-- Add classpath:db/seatlock-mysql to spring.flyway.locations, or run this file yourself. Idempotent.
CREATE TABLE IF NOT EXISTS lock_fences (
    resource   VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
    token      BIGINT      NOT NULL,
    updated_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE = InnoDB;
