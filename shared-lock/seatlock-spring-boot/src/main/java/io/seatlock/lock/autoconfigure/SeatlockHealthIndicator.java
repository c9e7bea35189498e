package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.redis.RedisLockClient;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/** Up when Redis answers a PING; shows the round trip, the key prefix and how many leases this replica holds. */
class SeatlockHealthIndicator extends AbstractHealthIndicator {

    private final RedisLockClient lock;

    SeatlockHealthIndicator(RedisLockClient lock) {
        super("seatlock health check failed");
        this.lock = lock;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        long roundTripMicros = lock.ping().toNanos() / 1000;
        builder.up()
                .withDetail("roundTripMicros", roundTripMicros)
                .withDetail("keyPrefix", lock.settings().keyPrefix())
                .withDetail("instanceId", lock.settings().instanceId())
                .withDetail("heldByThisInstance", lock.heldLeases().size());
    }
}
