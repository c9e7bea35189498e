/**
 * Once per slot: a durable (job, slot) record decides whether a scheduled run does the work.
 */
@NullMarked
package io.seatlock.lock.slots;

import org.jspecify.annotations.NullMarked;
