-- The storage side of leader fencing (see io.seatlock.lock.fencing.PostgresFence).
CREATE TABLE lock_fences (
    resource   text        PRIMARY KEY,
    token      bigint      NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- What leaders did, each write tagged with the epoch it was made under.
CREATE TABLE leader_actions (
    id         bigserial PRIMARY KEY,
    epoch      bigint      NOT NULL,
    holder     text        NOT NULL,
    action     text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
