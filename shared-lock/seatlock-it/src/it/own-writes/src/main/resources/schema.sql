CREATE TABLE IF NOT EXISTS tickets (seat text PRIMARY KEY, holder text);
CREATE TABLE IF NOT EXISTS captures (slot timestamptz NOT NULL, runner text NOT NULL);
CREATE TABLE IF NOT EXISTS ledger (id bigserial PRIMARY KEY, epoch bigint NOT NULL, leader text NOT NULL);
