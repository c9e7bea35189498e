-- seatlock: the PostgreSQL lock's leases (io.seatlock.lock.postgres.PostgresLock), one row per lock name, kept
-- after a release so that its fencing token only grows. In a schema of its own, so that creating it before the
-- application's first migration leaves the application's schema empty for Flyway. The lock creates this when it
-- starts (PostgresLock.createTable) unless told not to; else run this file yourself before the application starts
-- (the migration gate needs the table before any migration runs). Idempotent.
CREATE SCHEMA IF NOT EXISTS seatlock;
CREATE SEQUENCE IF NOT EXISTS seatlock.leases_tokens AS bigint CACHE 1;
CREATE TABLE IF NOT EXISTS seatlock.leases (
    name          text COLLATE "C" PRIMARY KEY,
    owner_token   text,
    holder        text,
    fencing_token bigint      NOT NULL,
    expires_at    timestamptz NOT NULL,
    waited        boolean     NOT NULL DEFAULT false,
    decided_until timestamptz,
    -- A grant changes fencing_token, a column of this unique key, so it waits for every guarded write that holds
    -- the row FOR KEY SHARE; a renewal or a release changes no key column and waits for none.
    CONSTRAINT leases_grant UNIQUE (name, fencing_token)
);
