-- shared-lock: the storage side of fencing (io.seatlock.lock.fencing.PostgresFence).
-- Add classpath:db/seatlock to spring.flyway.locations, or run this file yourself. Idempotent.
CREATE TABLE IF NOT EXISTS lock_fences (
    resource   text        PRIMARY KEY,
    token      bigint      NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
