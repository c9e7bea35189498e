package io.seatlock.lock.redis;

import io.seatlock.lock.spi.CallbackThreads;
import io.seatlock.lock.LockListener;

import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * What a lease needs from the client that granted it, handed over once: the lease never reaches back into
 * the client.
 *
 * @param calls     bounded Redis calls
 * @param commands  the owner-checked scripts
 * @param keys      the key layout (the decided marker's key)
 * @param settings  safety margin
 * @param listener  told what the lease does (guarded)
 * @param watchdogs runs renewals
 * @param callbacks runs lost-lease callbacks
 * @param ended     told when the lease ends (released or lost), to drop it from the held ones
 */
record LeaseContext(RedisCalls calls, LeaseCommands commands, RedisKeys keys, RedisLockSettings settings, LockListener listener,
                    ScheduledExecutorService watchdogs, CallbackThreads callbacks, Consumer<RedisLease> ended) {
}
