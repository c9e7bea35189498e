-- A demo event so the app is usable on first start: rows A-T, seats 1-20 (labels like 14C).
INSERT INTO events (id, name, starts_at) VALUES ('concert', 'The Lock Ensemble, live', now() + interval '30 days');
INSERT INTO seats (event_id, label)
SELECT 'concert', n || chr(64 + r)
FROM generate_series(1, 20) AS r, generate_series(1, 20) AS n;
