package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.LockStoreRefusedException;
import io.seatlock.lock.LockUnavailableException;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code seatlock} health check, the same on each Spring Boot line (Boot4SeatlockHealthIndicator and Boot3SeatlockHealthIndicator write it out):
 * {@code UP} when the lock's store answers a round trip (with its time, the store and where in it, and how many leases
 * this replica holds); {@code DEGRADED} when it does not, or when it answers by refusing the lock (a login, permission
 * or TLS turned down: the description and {@code refused: true} say that a setting must be fixed). A lock outage is not
 * a dead replica: Spring Boot's default status order leaves {@code DEGRADED} out, so {@code /actuator/health} and
 * liveness stay {@code UP}. An application that cannot work without the lock puts {@code seatlock} into its readiness
 * group and maps {@code DEGRADED} to 503 there (docs/operations.md).
 */
final class SeatlockHealth {

    /** The status code while the store does not answer or refuses the lock. */
    static final String DEGRADED = "DEGRADED";
    static final String UNANSWERED = "the lock's store does not answer: locks are unavailable";
    static final String REFUSED = "the lock's store refused the lock's login, permission or TLS: locks are unavailable "
            + "until a setting is fixed";

    private final ReplicaLocks lock;

    SeatlockHealth(ReplicaLocks lock) {
        this.lock = lock;
    }

    /** One check: the store's answer, or why there was none. */
    Report check() {
        Map<String, Object> details = new LinkedHashMap<>();
        long roundTripMicros;
        try {
            roundTripMicros = lock.ping().get().toNanos() / 1000;
        } catch (LockUnavailableException e) {
            boolean refused = e instanceof LockStoreRefusedException;
            details.put("error", e.getMessage());
            details.put("refused", refused);
            details.putAll(lock.where());
            details.put("instanceId", lock.instanceId());
            return new Report(false, refused ? REFUSED : UNANSWERED, details);
        }
        details.put("roundTripMicros", roundTripMicros);
        details.putAll(lock.where());
        details.put("instanceId", lock.instanceId());
        details.put("heldByThisInstance", lock.held().get().size());
        return new Report(true, "", details);
    }

    /**
     * @param up          whether the store answered
     * @param description why not, where it did not ({@link #UNANSWERED} or {@link #REFUSED})
     * @param details     what the health endpoint shows
     */
    record Report(boolean up, String description, Map<String, Object> details) {
    }
}
