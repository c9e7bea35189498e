package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.redis.RedisLockClient;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * {@code UP} when Redis answers a PING (with the round trip, the key prefix and how many leases this replica
 * holds); {@code DEGRADED} when it does not. A lock outage is not a dead replica: Spring Boot's default status
 * order leaves {@code DEGRADED} out, so {@code /actuator/health} and liveness stay {@code UP}. An application
 * that cannot work without the lock puts {@code seatlock} into its readiness group and maps {@code DEGRADED}
 * to 503 there (README "Health").
 */
class SeatlockHealthIndicator extends AbstractHealthIndicator {

    private final RedisLockClient lock;

    SeatlockHealthIndicator(RedisLockClient lock) {
        super("seatlock health check failed");
        this.lock = lock;
    }

    /** The status while Redis does not answer: the lock is unavailable, the replica is not broken. */
    static final Status DEGRADED = new Status("DEGRADED", "Redis does not answer: locks are unavailable");

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        long roundTripMicros;
        try {
            roundTripMicros = lock.ping().toNanos() / 1000;
        } catch (LockUnavailableException e) {
            builder.status(DEGRADED).withDetail("error", e.getMessage())
                    .withDetail("keyPrefix", lock.settings().keyPrefix())
                    .withDetail("instanceId", lock.settings().instanceId())
                    .withDetail("client", lock.client());
            return;
        }
        builder.up()
                .withDetail("roundTripMicros", roundTripMicros)
                .withDetail("keyPrefix", lock.settings().keyPrefix())
                .withDetail("instanceId", lock.settings().instanceId())
                .withDetail("client", lock.client())
                .withDetail("heldByThisInstance", lock.heldLeases().size());
    }
}
