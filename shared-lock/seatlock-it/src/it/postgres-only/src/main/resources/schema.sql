CREATE TABLE IF NOT EXISTS ledger (epoch bigint NOT NULL, entry text NOT NULL);
