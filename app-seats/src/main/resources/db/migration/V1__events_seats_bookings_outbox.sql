CREATE TABLE events (
    id        text PRIMARY KEY,
    name      text        NOT NULL,
    starts_at timestamptz NOT NULL
);

-- The referee: a seat is sold by one conditional UPDATE ... WHERE buyer_email IS NULL.
CREATE TABLE seats (
    event_id      text NOT NULL REFERENCES events (id),
    label         text NOT NULL,
    buyer_email   text,
    buyer_name    text,
    booked_at     timestamptz,
    fencing_token bigint,
    PRIMARY KEY (event_id, label)
);

CREATE TABLE bookings (
    id            uuid PRIMARY KEY,
    event_id      text        NOT NULL,
    seat_label    text        NOT NULL,
    buyer_email   text        NOT NULL,
    buyer_name    text        NOT NULL,
    fencing_token bigint,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT bookings_one_per_seat UNIQUE (event_id, seat_label),
    FOREIGN KEY (event_id, seat_label) REFERENCES seats (event_id, label)
);

-- Written in the booking's transaction; the relay sends each row once and marks it.
CREATE TABLE email_outbox (
    id              bigserial PRIMARY KEY,
    idempotency_key text        NOT NULL UNIQUE,
    booking_id      uuid        NOT NULL,
    recipient       text        NOT NULL,
    subject         text        NOT NULL,
    body            text        NOT NULL,
    status          text        NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SENT', 'DEAD')),
    attempts        int         NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz,
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_outbox_pending ON email_outbox (next_attempt_at) WHERE status = 'PENDING';
