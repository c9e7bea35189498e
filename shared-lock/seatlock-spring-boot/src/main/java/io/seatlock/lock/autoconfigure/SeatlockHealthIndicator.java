package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.LockStoreRefusedException;
import io.seatlock.lock.LockUnavailableException;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * {@code UP} when the lock's store answers a round trip (with its time, the store and where in it, and how many leases
 * this replica holds); {@code DEGRADED} when it does not, or when it answers by refusing the lock (a login, permission
 * or TLS turned down: the description and {@code refused: true} say that a setting must be fixed). A lock outage is not a dead replica: Spring Boot's default
 * status order leaves {@code DEGRADED} out, so {@code /actuator/health} and liveness stay {@code UP}. An application
 * that cannot work without the lock puts {@code seatlock} into its readiness group and maps {@code DEGRADED} to 503
 * there (docs/operations.md).
 */
class SeatlockHealthIndicator extends AbstractHealthIndicator {

    private final ReplicaLocks lock;

    SeatlockHealthIndicator(ReplicaLocks lock) {
        super("seatlock health check failed");
        this.lock = lock;
    }

    /** The status while the store does not answer: the lock is unavailable, the replica is not broken. */
    static final Status DEGRADED = new Status("DEGRADED", "the lock's store does not answer: locks are unavailable");
    /** The same status while the store refuses the lock: no retry mends it. */
    static final Status REFUSED = new Status(DEGRADED.getCode(),
            "the lock's store refused the lock's login, permission or TLS: locks are unavailable until a setting is fixed");

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        long roundTripMicros;
        try {
            roundTripMicros = lock.ping().get().toNanos() / 1000;
        } catch (LockUnavailableException e) {
            boolean refused = e instanceof LockStoreRefusedException;
            builder.status(refused ? REFUSED : DEGRADED).withDetail("error", e.getMessage())
                    .withDetail("refused", refused).withDetails(lock.where())
                    .withDetail("instanceId", lock.instanceId());
            return;
        }
        builder.up()
                .withDetail("roundTripMicros", roundTripMicros)
                .withDetails(lock.where())
                .withDetail("instanceId", lock.instanceId())
                .withDetail("heldByThisInstance", lock.held().get().size());
    }
}
