CREATE TABLE example_seats (
    id    text PRIMARY KEY,
    buyer text
);
INSERT INTO example_seats (id) VALUES ('14C'), ('14D');

CREATE TABLE example_ticks (
    slot   timestamptz PRIMARY KEY,
    runner text NOT NULL
);

CREATE TABLE example_leader_writes (
    id     bigserial PRIMARY KEY,
    epoch  bigint NOT NULL,
    holder text   NOT NULL
);

CREATE TABLE example_ledger (
    id      bigserial PRIMARY KEY,
    account text   NOT NULL,
    cents   bigint NOT NULL,
    token   bigint NOT NULL
);
