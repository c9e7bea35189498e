/**
 * The library's own helpers, shared between its modules: not API and not SPI. Nothing here is kept compatible
 * between versions, the {@code .api} baselines leave it out, and no type here appears in a public signature of
 * {@code io.seatlock.lock} or {@code io.seatlock.lock.spi}.
 */
@NullMarked
package io.seatlock.lock.internal;

import org.jspecify.annotations.NullMarked;
