-- A migration that fails every time it runs: no one-shot run may report the schema current.
ALTER TABLE accounts ADD COLUMN region text;
INSERT INTO no_such_table VALUES (1);
