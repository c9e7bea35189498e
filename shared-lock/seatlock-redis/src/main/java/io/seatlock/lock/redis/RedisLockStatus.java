package io.seatlock.lock.redis;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.seatlock.lock.spi.LockListeners;
import io.seatlock.lock.spi.LockSpec;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** The status queries of the Redis lock: for displays, never for decisions (the answers are stale on arrival). */
final class RedisLockStatus {

    private final RedisCalls calls;
    private final RedisKeys keys;

    RedisLockStatus(RedisCalls calls, RedisKeys keys) {
        this.calls = calls;
        this.keys = keys;
    }

    Optional<Duration> remainingTtl(String name) {
        LockSpec.requireValidName(name);
        long pttl = calls.call(LockListeners.groupOf(name), r -> r.pttl(keys.lock(name)).toCompletableFuture());
        if (pttl == -2) {
            return Optional.empty();
        }
        return Optional.of(pttl == -1 ? ChronoUnit.FOREVER.getDuration() : Duration.ofMillis(pttl));
    }

    Optional<String> holder(String name) {
        LockSpec.requireValidName(name);
        String owner = calls.call(LockListeners.groupOf(name), r -> r.get(keys.lock(name)).toCompletableFuture());
        return owner == null ? Optional.empty() : Optional.of(OwnerTokens.instanceOf(owner));
    }

    Set<String> heldNames(String namePrefix) {
        if (namePrefix == null || namePrefix.indexOf('{') >= 0 || namePrefix.indexOf('}') >= 0
                || namePrefix.indexOf('*') >= 0 || namePrefix.indexOf('?') >= 0 || namePrefix.indexOf('[') >= 0) {
            throw new IllegalArgumentException("name prefix must not be null or contain braces or glob characters");
        }
        String pattern = keys.lockPattern(namePrefix);
        String group = LockListeners.groupOf(namePrefix);
        Set<String> names = new HashSet<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            ScanCursor from = cursor;
            KeyScanCursor<String> page = calls.call(group,
                    r -> r.scan(from, ScanArgs.Builder.matches(pattern).limit(1000)).toCompletableFuture());
            page.getKeys().forEach(k -> names.add(keys.nameOfLock(k)));
            cursor = page;
        } while (!cursor.isFinished());
        return names;
    }

    /** One EXISTS per name, all sent at once and awaited together within one command timeout. */
    Set<String> held(Collection<String> names) {
        List<String> asked = List.copyOf(names);
        asked.forEach(LockSpec::requireValidName);
        if (asked.isEmpty()) {
            return Set.of();
        }
        List<CompletableFuture<Long>> answers = asked.stream()
                .map(name -> calls.send(r -> r.exists(keys.lock(name)).toCompletableFuture())).toList();
        calls.call(LockListeners.groupOf(asked.get(0)),
                r -> CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)));
        Set<String> held = new HashSet<>();
        for (int i = 0; i < asked.size(); i++) {
            if (answers.get(i).join() == 1) {
                held.add(asked.get(i));
            }
        }
        return held;
    }
}
