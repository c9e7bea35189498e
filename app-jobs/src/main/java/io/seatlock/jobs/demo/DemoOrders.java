package io.seatlock.jobs.demo;

import io.seatlock.jobs.JobsProperties;
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
class DemoOrders {

    private final JdbcClient jdbc;
    private final JobsProperties.Demo settings;

    DemoOrders(JdbcClient jdbc, JobsProperties properties) {
        this.jdbc = jdbc;
        this.settings = properties.demo();
    }

    @Scheduled(initialDelay = 0, fixedDelayString = "#{@'" + JobsProperties.BEAN + "'.demo().orderEvery()}")
    void placeOrder() {
        if (!settings.enabled()) {
            return;
        }
        jdbc.sql("INSERT INTO payments (idempotency_key, amount_cents) VALUES (:key, :amount)")
                .param("key", "demo-" + UUID.randomUUID())
                .param("amount", ThreadLocalRandom.current().nextLong(5, 200) * 100)
                .update();
    }
}
