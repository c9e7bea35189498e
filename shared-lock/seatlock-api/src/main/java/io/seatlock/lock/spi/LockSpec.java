package io.seatlock.lock.spi;

import io.seatlock.lock.OverlapImpact;

import java.time.Duration;
import java.util.Objects;

/**
 * For implementations of {@link io.seatlock.lock.DistributedLock}: a validated request for a lock: its name, its time to live and what breaks on overlap.
 *
 * @param name   1 to {@value #MAX_NAME_LENGTH} characters, no braces (they are the Redis Cluster hash
 *               tag) and no control characters
 * @param ttl    how long Redis keeps the lock if nobody renews or releases it
 * @param impact what breaks if two holders overlap
 */
public record LockSpec(String name, Duration ttl, OverlapImpact impact) {

    public static final int MAX_NAME_LENGTH = 200;
    public static final Duration MAX_TTL = Duration.ofDays(1);

    public LockSpec {
        name = requireValidName(name);
        ttl = requireValidTtl(ttl);
        Objects.requireNonNull(impact, "overlap impact must be declared (WASTED_WORK or BROKEN_PROMISE)");
    }

    public static String requireValidName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("lock name must not be blank");
        }
        if (name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(
                    "lock name is " + name.length() + " characters; at most " + MAX_NAME_LENGTH + " allowed");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '{' || c == '}' || Character.isISOControl(c)) {
                throw new IllegalArgumentException("lock name must not contain braces or control characters: '"
                        + name.replaceAll("\\p{Cntrl}", "?") + "'");
            }
        }
        return name;
    }

    public static Duration requireValidTtl(Duration ttl) {
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("lock ttl must be positive, was " + ttl);
        }
        if (ttl.toMillis() < 1) {
            throw new IllegalArgumentException("lock ttl must be at least 1 ms, was " + ttl);
        }
        if (ttl.compareTo(MAX_TTL) > 0) {
            throw new IllegalArgumentException("lock ttl " + ttl + " exceeds the maximum of " + MAX_TTL
                    + "; renew a shorter lease instead");
        }
        return ttl;
    }
}
