/**
 * For implementations of {@link io.seatlock.lock.DistributedLock}: request validation, guarded callback and listener calls and the default instance id. Not needed by applications.
 */
@NullMarked
package io.seatlock.lock.spi;

import org.jspecify.annotations.NullMarked;
