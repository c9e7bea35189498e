-- long enough that the gate's lease (600 ms) must be renewed while Flyway holds its connections
DO SLEEP(1.5);
CREATE TABLE gate_counts (replica VARCHAR(40) PRIMARY KEY);
