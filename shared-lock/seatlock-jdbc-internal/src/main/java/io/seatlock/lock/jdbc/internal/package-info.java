/**
 * What the lock stores on a relational database share: bounded calls on a {@code DataSource}, the lease row lock's
 * grant, renewal and release around a dialect's statements, and the waiters of a name. Not API and not SPI: nothing
 * here is kept compatible between versions, and no type here appears in a public signature.
 */
@NullMarked
package io.seatlock.lock.jdbc.internal;

import org.jspecify.annotations.NullMarked;
