-- server time per acquire+release pair, 5000 pairs each, no network: seatlock's two statements and ShedLock's two (db time)
CREATE TEMP TABLE prof_result (who text, micros_per_pair numeric);
DO $$
DECLARE t0 timestamptz; i int; tok bigint;
BEGIN
  t0 := clock_timestamp();
  FOR i IN 1..5000 LOOP
    WITH bound AS MATERIALIZED (SELECT set_config('lock_timeout', '1500ms', true))
    INSERT INTO seatlock.leases AS l (name, owner_token, holder, fencing_token, expires_at)
    SELECT 'prof:' || (i % 1000), 'owner-' || i, 'prof', nextval('seatlock.leases_tokens'), clock_timestamp() + 10000::bigint * interval '1 millisecond' FROM bound
    ON CONFLICT (name) DO UPDATE SET owner_token = EXCLUDED.owner_token, holder = EXCLUDED.holder,
      fencing_token = GREATEST(EXCLUDED.fencing_token, l.fencing_token + 1),
      expires_at = clock_timestamp() + 10000::bigint * interval '1 millisecond', waited = false
    WHERE (l.owner_token IS NULL OR l.expires_at <= clock_timestamp() OR l.owner_token = EXCLUDED.owner_token)
      AND (NOT false OR l.decided_until IS NULL OR l.decided_until <= clock_timestamp())
    RETURNING fencing_token INTO tok;
    WITH released AS (UPDATE seatlock.leases SET owner_token = NULL, expires_at = clock_timestamp()
       WHERE name = 'prof:' || (i % 1000) AND owner_token = 'owner-' || i AND expires_at > clock_timestamp() RETURNING name, waited)
    SELECT count(CASE WHEN waited THEN pg_notify('seatlock_leases_released', name) END) INTO tok FROM released;
  END LOOP;
  INSERT INTO prof_result VALUES ('seatlock', extract(epoch FROM clock_timestamp() - t0) * 1e6 / 5000);
  t0 := clock_timestamp();
  FOR i IN 1..5000 LOOP
    INSERT INTO shedlock(name, lock_until, locked_at, locked_by)
    VALUES ('prof:' || (i % 1000), timezone('utc', CURRENT_TIMESTAMP) + cast('10 seconds' as interval), timezone('utc', CURRENT_TIMESTAMP), 'prof')
    ON CONFLICT (name) DO UPDATE SET lock_until = timezone('utc', CURRENT_TIMESTAMP) + cast('10 seconds' as interval),
      locked_at = timezone('utc', CURRENT_TIMESTAMP), locked_by = 'prof'
    WHERE shedlock.lock_until <= timezone('utc', CURRENT_TIMESTAMP);
    UPDATE shedlock SET lock_until = timezone('utc', CURRENT_TIMESTAMP) WHERE name = 'prof:' || (i % 1000) AND locked_by = 'prof';
  END LOOP;
  INSERT INTO prof_result VALUES ('shedlock', extract(epoch FROM clock_timestamp() - t0) * 1e6 / 5000);
END $$;
SELECT * FROM prof_result;
