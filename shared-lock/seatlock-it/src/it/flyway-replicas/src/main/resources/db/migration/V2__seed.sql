-- The application's entity (Account) needs this column: a replica whose beans start before V2 fails validation.
ALTER TABLE accounts ADD COLUMN tier text NOT NULL DEFAULT 'basic';
-- Applied twice, this fails on the primary key: each replica must not run it again.
INSERT INTO accounts (id, owner) VALUES (1, 'omar');
