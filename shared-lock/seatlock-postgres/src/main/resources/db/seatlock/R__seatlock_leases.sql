-- seatlock: the PostgreSQL lock's leases (io.seatlock.lock.postgres.PostgresLock), one row per lock name, kept
-- after a release so that its fencing token only grows. The lock creates this when it starts unless told not to;
-- else add classpath:db/seatlock to spring.flyway.locations, or run this file yourself. Idempotent.
CREATE SEQUENCE IF NOT EXISTS seatlock_leases_tokens AS bigint CACHE 1;
CREATE TABLE IF NOT EXISTS seatlock_leases (
    name          text COLLATE "C" PRIMARY KEY,
    owner_token   text,
    holder        text,
    fencing_token bigint      NOT NULL,
    expires_at    timestamptz NOT NULL,
    waited        boolean     NOT NULL DEFAULT false,
    decided_until timestamptz,
    -- A grant changes fencing_token, a column of this unique key, so it waits for every guarded write that holds
    -- the row FOR KEY SHARE; a renewal or a release changes no key column and waits for none.
    CONSTRAINT seatlock_leases_grant UNIQUE (name, fencing_token)
);
