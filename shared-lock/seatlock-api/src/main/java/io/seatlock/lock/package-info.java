/**
 * The lock API: {@link io.seatlock.lock.DistributedLock} and its {@link io.seatlock.lock.LockLease}, fencing tokens, the storage-side {@link io.seatlock.lock.Fence}, and what each use declares it breaks on overlap ({@link io.seatlock.lock.OverlapImpact}).
 */
@NullMarked
package io.seatlock.lock;

import org.jspecify.annotations.NullMarked;
