package io.seatlock.seats.booking;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

import java.time.Duration;

/**
 * A hint in Redis that a seat is sold, written only after the booking committed and before its lock is
 * released, so the crowd that arrives after a sale is answered "just taken" from Redis instead of each
 * asking PostgreSQL. It can only be missing (Redis lost it), never wrong, because bookings are never
 * undone; if cancellations are added they must delete it after their commit.
 */
@Component
class SoldSeats {

    private static final Logger log = LoggerFactory.getLogger(SoldSeats.class);
    private static final Duration KEEP = Duration.ofDays(30);

    private final StringRedisTemplate redis;
    private final String prefix;

    SoldSeats(StringRedisTemplate redis, @Value("${seatlock.lock.key-prefix:seatlock:}") String keyPrefix) {
        this.redis = redis;
        this.prefix = keyPrefix + "sold:{";
    }

    /** True if Redis knows the seat is sold; false if not, or if Redis cannot say (the referee decides then). */
    boolean knownSold(SeatId seat) {
        try {
            return Boolean.TRUE.equals(redis.hasKey(key(seat)));
        } catch (DataAccessException e) {
            return false;
        }
    }

    void markSold(SeatId seat) {
        try {
            redis.opsForValue().set(key(seat), "1", KEEP);
        } catch (DataAccessException e) {
            log.debug("could not mark {} sold in Redis: {}", seat, e.getMessage());
        }
    }

    private String key(SeatId seat) {
        return prefix + seat.lockName() + "}";
    }
}
