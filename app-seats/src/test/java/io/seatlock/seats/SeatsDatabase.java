package io.seatlock.seats;

import io.seatlock.localservers.IsolatedServers;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.util.List;
import java.util.Map;

/** Reads the test class's database directly, to assert on rows rather than on responses. */
public final class SeatsDatabase {

    private final JdbcClient jdbc;

    public SeatsDatabase(IsolatedServers servers) {
        this.jdbc = JdbcClient.create(servers.dataSource());
    }

    public String buyerOf(String event, String seat) {
        return jdbc.sql("SELECT buyer_email FROM seats WHERE event_id = ? AND label = ?").params(event, seat)
                .query(String.class).optional().orElse(null);
    }

    public List<Map<String, Object>> bookings(String event, String seat) {
        return jdbc.sql("SELECT * FROM bookings WHERE event_id = ? AND seat_label = ?").params(event, seat)
                .query().listOfRows();
    }

    public long count(String sql, Object... params) {
        return jdbc.sql(sql).params(params).query(Long.class).single();
    }

    public boolean outboxDrained() {
        return count("SELECT count(*) FROM email_outbox WHERE status = 'PENDING'") == 0;
    }

    public JdbcClient jdbc() {
        return jdbc;
    }
}
