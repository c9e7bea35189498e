-- The relay leases a row (claimed_until) instead of holding a transaction and a row lock across SMTP.
ALTER TABLE email_outbox ADD COLUMN claimed_until timestamptz;
-- Rows are never given up any more: retried with capped back-off. Requeue what the old relay dead-lettered.
UPDATE email_outbox SET status = 'PENDING', next_attempt_at = now() WHERE status = 'DEAD';
ALTER TABLE email_outbox DROP CONSTRAINT email_outbox_status_check;
ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_status_check CHECK (status IN ('PENDING', 'SENT'));
