/**
 * Spring Boot auto-configuration of seatlock. API: the properties records and {@link io.seatlock.lock.autoconfigure.LocksEndpoint}; the rest is package-private.
 */
@NullMarked
package io.seatlock.lock.autoconfigure;

import org.jspecify.annotations.NullMarked;
