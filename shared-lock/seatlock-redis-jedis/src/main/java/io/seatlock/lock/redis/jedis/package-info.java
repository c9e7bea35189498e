/**
 * The Redis lock's Jedis transport: {@link io.seatlock.lock.redis.jedis.JedisTransport}.
 */
@NullMarked
package io.seatlock.lock.redis.jedis;

import org.jspecify.annotations.NullMarked;
