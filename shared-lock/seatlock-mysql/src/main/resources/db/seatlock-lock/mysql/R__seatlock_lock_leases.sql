-- seatlock: the MySQL/MariaDB lock's leases (io.seatlock.lock.mysql.MySqlLock), one row per lock name, kept after a
-- release so that its fencing token only grows. Times are UTC_TIMESTAMP(6), compared in SQL only. A new row's token
-- starts above seatlock_leases_tokens.last_token, which the trigger raises to the token of every deleted row, so a
-- name's tokens grow across a deleted row too. The lock creates these when it starts (MySqlLock.createTable) unless
-- told not to; else run this file yourself before the application starts (creating the trigger needs the TRIGGER
-- privilege, and with binary logging on MySQL, SUPER or log_bin_trust_function_creators). Idempotent.
CREATE TABLE IF NOT EXISTS seatlock_leases (
    name          VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
    owner_token   VARCHAR(300) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    holder        VARCHAR(255) CHARACTER SET utf8mb4,
    fencing_token BIGINT      NOT NULL,
    expires_at    DATETIME(6) NOT NULL,
    decided_until DATETIME(6)
) ENGINE = InnoDB;
CREATE TABLE IF NOT EXISTS seatlock_leases_tokens (
    id         TINYINT NOT NULL PRIMARY KEY,
    last_token BIGINT  NOT NULL
) ENGINE = InnoDB;
INSERT IGNORE INTO seatlock_leases_tokens (id, last_token) VALUES (1, 0);
CREATE TRIGGER IF NOT EXISTS seatlock_leases_deleted BEFORE DELETE ON seatlock_leases FOR EACH ROW
    UPDATE seatlock_leases_tokens SET last_token = GREATEST(last_token, OLD.fencing_token) WHERE id = 1;
