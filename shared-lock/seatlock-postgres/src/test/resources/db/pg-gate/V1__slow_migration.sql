-- long enough that the gate's lease (600 ms) must be renewed while Flyway holds its connections
SELECT pg_sleep(1.5);
CREATE TABLE gate_counts (replica text PRIMARY KEY);
