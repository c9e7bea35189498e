-- Applied twice, this fails on the primary key: each replica must not run it again.
INSERT INTO accounts (id, owner) VALUES (1, 'omar');
