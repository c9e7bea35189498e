package io.seatlock.jobs.demo;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Places a pending payment every {@code jobs.demo.order-every}, as a shop's checkout would, so that a fresh
 * start has something for the payment-capture job to capture within a minute. Off unless
 * {@code jobs.demo.enabled=true}.
 */
@Component
@ConditionalOnBooleanProperty("jobs.demo.enabled")
class DemoOrders {

    private final JdbcClient jdbc;

    DemoOrders(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Scheduled(initialDelay = 0, fixedDelayString = "${jobs.demo.order-every:10s}")
    void placeOrder() {
        jdbc.sql("INSERT INTO payments (idempotency_key, amount_cents) VALUES (:key, :amount)")
                .param("key", "demo-" + UUID.randomUUID())
                .param("amount", ThreadLocalRandom.current().nextLong(5, 200) * 100)
                .update();
    }
}
