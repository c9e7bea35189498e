package io.seatlock.lock.autoconfigure;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The lock this library wired, and what the health indicator and {@code /actuator/locks} show of it, whichever its store. Each
 * store's auto-configuration makes one, so that neither store's classes are needed by the other's.
 *
 * @param lock       the lock itself
 * @param ping       one round trip to the store, timed; throws LockUnavailableException if it does not answer
 * @param instanceId this replica's name in owner tokens
 * @param held       the leases this replica holds now
 * @param where      the store and where in it (redis: key prefix and client; postgres: table)
 */
record ReplicaLocks(DistributedLock lock, Supplier<Duration> ping, String instanceId, Supplier<List<LockLease>> held,
                    Map<String, Object> where) {
}
