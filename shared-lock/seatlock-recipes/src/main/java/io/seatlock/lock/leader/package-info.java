/**
 * Leader election over any {@link io.seatlock.lock.DistributedLock}: the epoch is the grant's fencing token, and leader writes carry it to storage that refuses an older one.
 */
@NullMarked
package io.seatlock.lock.leader;

import org.jspecify.annotations.NullMarked;
