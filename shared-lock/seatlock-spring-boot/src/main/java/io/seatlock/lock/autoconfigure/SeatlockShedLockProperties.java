package io.seatlock.lock.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The ShedLock provider ({@code seatlock.shedlock.*}).
 *
 * @param enabled Whether to register seatlock's ShedLock LockProvider when the application has ShedLock.
 */
@ConfigurationProperties("seatlock.shedlock")
record SeatlockShedLockProperties(@DefaultValue("true") boolean enabled) {
}
