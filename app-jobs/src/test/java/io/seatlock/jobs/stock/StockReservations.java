package io.seatlock.jobs.stock;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.Optional;

/**
 * Reserves stock units. The lock is the bouncer (one reserver per SKU at a time, the rest wait in
 * Redis); the conditional UPDATE is the referee: {@code reserved < total} is re-checked on the newest
 * row, so even overlapping holders never oversell.
 */
@Component
public class StockReservations {

    public enum Outcome { RESERVED, SOLD_OUT }

    private final DistributedLock lock;
    private final JdbcClient jdbc;

    StockReservations(DistributedLock lock, JdbcClient jdbc) {
        this.lock = lock;
        this.jdbc = jdbc;
    }

    public Outcome reserve(String sku, Duration maxWait) throws InterruptedException {
        Optional<LockLease> lease = Optional.empty();
        try {
            lease = Optional.of(lock.acquire("stock:" + sku, Duration.ofSeconds(5), OverlapImpact.BROKEN_PROMISE, maxWait));
        } catch (LockUnavailableException e) {
            // Bouncer down: the referee alone still never oversells.
        }
        try {
            int rows = jdbc.sql("UPDATE stock SET reserved = reserved + 1 WHERE sku = :sku AND reserved < total")
                    .param("sku", sku).update();
            return rows == 1 ? Outcome.RESERVED : Outcome.SOLD_OUT;
        } finally {
            lease.ifPresent(LockLease::close);
        }
    }
}
