CREATE TABLE gate_recipe (id int PRIMARY KEY);
