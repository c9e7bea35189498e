CREATE TABLE gate_a (id int PRIMARY KEY);
