CREATE TABLE gate_c (id int PRIMARY KEY);
INSERT INTO gate_missing_table VALUES (1);
