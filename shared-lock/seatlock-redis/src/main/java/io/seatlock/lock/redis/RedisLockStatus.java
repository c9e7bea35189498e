package io.seatlock.lock.redis;

import io.seatlock.lock.redis.spi.RedisCommand;
import io.seatlock.lock.spi.LockListeners;
import io.seatlock.lock.spi.LockSpec;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The status queries of the Redis lock: for displays, never for decisions (the answers are stale on arrival).
 *
 * @param calls bounded Redis calls
 * @param keys  the key layout
 */
record RedisLockStatus(RedisCalls calls, RedisKeys keys) {

    Optional<Duration> remainingTtl(String name) {
        LockSpec.requireValidName(name);
        long pttl = calls.call(LockListeners.groupOf(name), new RedisCommand.Pttl(keys.lock(name)));
        if (pttl == -2) {
            return Optional.empty();
        }
        return Optional.of(pttl == -1 ? ChronoUnit.FOREVER.getDuration() : Duration.ofMillis(pttl));
    }

    Optional<String> holder(String name) {
        LockSpec.requireValidName(name);
        String owner = calls.call(LockListeners.groupOf(name), new RedisCommand.Get(keys.lock(name)));
        return owner == null ? Optional.empty() : Optional.of(OwnerTokens.instanceOf(owner));
    }

    Set<String> heldNames(String namePrefix) {
        LockSpec.requireValidNamePrefix(namePrefix);
        String pattern = keys.lockPattern(namePrefix);
        String group = LockListeners.groupOf(namePrefix);
        Set<String> names = new HashSet<>();
        calls.call(group, new RedisCommand.Scan(pattern)).forEach(k -> names.add(keys.nameOfLock(k)));
        return names;
    }

    /** One MGET of the names' lock keys (on a cluster one EXISTS per name), awaited within one command timeout. */
    Set<String> held(Collection<String> names) {
        List<String> asked = List.copyOf(names);
        asked.forEach(LockSpec::requireValidName);
        if (asked.isEmpty()) {
            return Set.of();
        }
        boolean[] exists = calls.call(LockListeners.groupOf(asked.get(0)),
                new RedisCommand.Exists(asked.stream().map(keys::lock).toList()));
        Set<String> held = new HashSet<>();
        for (int i = 0; i < asked.size(); i++) {
            if (exists[i]) {
                held.add(asked.get(i));
            }
        }
        return held;
    }
}
