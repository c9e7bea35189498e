/**
 * The PostgreSQL {@link io.seatlock.lock.Fence}.
 */
@NullMarked
package io.seatlock.lock.fencing;

import org.jspecify.annotations.NullMarked;
