-- job_runs comes with the library (classpath:db/seatlock, R__seatlock_job_runs.sql).
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
