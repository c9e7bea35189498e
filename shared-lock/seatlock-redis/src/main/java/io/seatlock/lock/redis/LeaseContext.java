package io.seatlock.lock.redis;

import io.seatlock.lock.spi.LeaseServices;

/**
 * What a lease needs from the client that granted it, handed over once: the lease never reaches back into
 * the client.
 *
 * @param calls    bounded Redis calls
 * @param commands the owner-checked scripts
 * @param services what every store's lease is handed
 */
record LeaseContext(RedisCalls calls, LeaseCommands commands, LeaseServices services) {
}
