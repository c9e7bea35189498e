/**
 * For transport modules only: how the Redis lock hands its commands to a Redis client library.
 */
@NullMarked
package io.seatlock.lock.redis.spi;

import org.jspecify.annotations.NullMarked;
