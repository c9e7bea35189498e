/**
 * The Redis lock's Lettuce transport: one shared, pipelined connection, for {@code RedisLockClient.over}.
 */
@NullMarked
package io.seatlock.lock.redis.lettuce;

import org.jspecify.annotations.NullMarked;
