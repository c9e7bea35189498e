CREATE TABLE parts (name text PRIMARY KEY);
INSERT INTO parts VALUES ('gate');
