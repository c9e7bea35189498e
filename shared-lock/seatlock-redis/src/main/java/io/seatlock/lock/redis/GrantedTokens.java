package io.seatlock.lock.redis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The highest fencing token this client has been granted per lock name, handed to the acquire script as a
 * floor: a token never goes backwards where this client can see it, even when a promoted replica has
 * neither the fence nor a clock as far ahead as the old master's. Best effort and bounded (the storage
 * side of fencing stays the referee): past {@link #MAX_NAMES} names it starts over.
 */
final class GrantedTokens {

    static final int MAX_NAMES = 10_000;
    private static final String NONE = "0";

    /** Raised in place: a grant for a name seen before allocates nothing. */
    private final Map<String, AtomicLong> highest = new ConcurrentHashMap<>();

    /** The script argument: the highest token granted for {@code name} here, or 0. */
    String floor(String name) {
        AtomicLong token = highest.get(name);
        return token == null ? NONE : Long.toString(token.get());
    }

    void granted(String name, long token) {
        AtomicLong known = highest.get(name);
        if (known == null) {
            if (highest.size() >= MAX_NAMES) {
                highest.clear();
            }
            known = highest.computeIfAbsent(name, n -> new AtomicLong());
        }
        known.accumulateAndGet(token, Math::max);
    }
}
