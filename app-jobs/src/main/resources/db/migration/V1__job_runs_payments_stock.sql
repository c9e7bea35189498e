-- One row per (job, scheduled slot): a replica that slips past the lock records nothing and does nothing.
CREATE TABLE job_runs (
    job_name   text        NOT NULL,
    slot       timestamptz NOT NULL,
    runner     text        NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job_name, slot)
);

CREATE TABLE payments (
    id              bigserial PRIMARY KEY,
    idempotency_key text        NOT NULL UNIQUE,
    amount_cents    bigint      NOT NULL CHECK (amount_cents > 0),
    state           text        NOT NULL DEFAULT 'PENDING' CHECK (state IN ('PENDING', 'CAPTURED')),
    captured_by     text,
    captured_at     timestamptz
);

CREATE TABLE stock (
    sku      text PRIMARY KEY,
    total    int  NOT NULL CHECK (total >= 0),
    reserved int  NOT NULL DEFAULT 0,
    CONSTRAINT stock_never_oversold CHECK (reserved <= total)
);
