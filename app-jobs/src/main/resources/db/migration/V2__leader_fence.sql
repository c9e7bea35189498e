-- lock_fences comes with the library (classpath:db/seatlock, R__seatlock_lock_fences.sql).
-- What leaders did, each write tagged with the epoch it was made under.
CREATE TABLE leader_actions (
    id         bigserial PRIMARY KEY,
    epoch      bigint      NOT NULL,
    holder     text        NOT NULL,
    action     text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
