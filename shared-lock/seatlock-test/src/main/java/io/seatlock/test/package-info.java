/**
 * seatlock's test kit, for your own tests: hold a holder at a named {@link io.seatlock.lock.Checkpoint}
 * past its lease ({@link io.seatlock.test.Pauses}), an in-memory lock with a manual clock
 * ({@link io.seatlock.test.InMemoryLock}), the contract every lock must pass
 * ({@link io.seatlock.test.DistributedLockContract}), a loopback {@link io.seatlock.test.FaultProxy}, and a
 * checker for what your storage did ({@link io.seatlock.test.WriteHistory}). Test scope only.
 */
@NullMarked
package io.seatlock.test;

import org.jspecify.annotations.NullMarked;
