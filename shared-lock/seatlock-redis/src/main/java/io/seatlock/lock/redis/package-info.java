/**
 * The fenced Redis lock on Lettuce: {@link io.seatlock.lock.redis.RedisLockClient}.
 */
@NullMarked
package io.seatlock.lock.redis;

import org.jspecify.annotations.NullMarked;
