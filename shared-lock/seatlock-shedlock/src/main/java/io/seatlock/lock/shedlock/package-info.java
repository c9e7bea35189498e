/**
 * ShedLock's lock provider over any {@link io.seatlock.lock.DistributedLock}.
 */
@NullMarked
package io.seatlock.lock.shedlock;

import org.jspecify.annotations.NullMarked;
