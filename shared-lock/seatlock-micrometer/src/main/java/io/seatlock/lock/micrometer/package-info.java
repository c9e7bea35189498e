/**
 * Micrometer Observations of any {@link io.seatlock.lock.DistributedLock}: {@link io.seatlock.lock.micrometer.LockObservations}.
 */
@NullMarked
package io.seatlock.lock.micrometer;

import org.jspecify.annotations.NullMarked;
