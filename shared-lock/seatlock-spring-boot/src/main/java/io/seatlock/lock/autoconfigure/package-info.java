/**
 * Spring Boot auto-configuration of seatlock. API: {@link io.seatlock.lock.autoconfigure.LocksEndpoint} and its answer; the auto-configuration classes are public for Spring Boot to name, and the rest, the properties records included, is package-private (bound by Spring Boot, described in the configuration metadata).
 */
@NullMarked
package io.seatlock.lock.autoconfigure;

import org.jspecify.annotations.NullMarked;
