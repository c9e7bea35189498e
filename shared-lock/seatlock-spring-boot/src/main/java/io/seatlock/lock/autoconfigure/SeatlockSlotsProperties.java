package io.seatlock.lock.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Once-per-slot jobs ({@code seatlock.slots.*}).
 *
 * @param enabled Whether to register JobSlots and the scheduler wrapper that tells each cron run its fire time.
 */
@ConfigurationProperties("seatlock.slots")
record SeatlockSlotsProperties(@DefaultValue("true") boolean enabled) {
}
