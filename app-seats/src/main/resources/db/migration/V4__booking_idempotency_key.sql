-- A client's Idempotency-Key, so a retry after an unknown outcome finds the booking it made, if it made one.
ALTER TABLE bookings ADD COLUMN idempotency_key text UNIQUE;
