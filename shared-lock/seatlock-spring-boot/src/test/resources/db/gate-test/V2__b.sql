CREATE TABLE gate_b (id int PRIMARY KEY);
