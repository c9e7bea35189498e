package io.seatlock.lock.redis;

import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.OwnedRedis;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code held(names)} costs Redis one command however many names (a seat map asks about 400 seats a refresh): one
 * MGET of their lock keys, where it was one EXISTS per name. The Cluster's per-slot path runs in the published
 * contract ({@code RedisClusterLockTest}).
 */
class HeldLocksTest {

    @Test
    void whichOfFourHundredNamesAreHeldIsOneCommand() throws Exception {
        try (OwnedRedis redis = new OwnedRedis();
             RedisLockClient lock = TestTransports.standalone(redis.server().uri(), Duration.ofSeconds(5),
                     RedisLockSettings.defaults(), LockListener.NOOP)) {
            List<String> names = IntStream.range(0, 400).mapToObj(i -> "seat:hall:" + i).toList();
            try (LockLease first = lock.tryAcquire(names.get(0), Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow();
                 LockLease last = lock.tryAcquire(names.get(399), Duration.ofMinutes(1), OverlapImpact.WASTED_WORK).orElseThrow()) {
                assertThat(lock.held(names)).hasSize(2); // connections and code paths warm
                Map<String, Long> before = redis.server().commandCalls();

                var held = lock.held(names);

                Map<String, Long> sent = new HashMap<>(redis.server().commandCalls());
                sent.replaceAll((command, calls) -> calls - before.getOrDefault(command, 0L));
                sent.values().removeIf(calls -> calls == 0);
                sent.keySet().removeAll(List.of("hello", "client", "info")); // the counting's own connection
                assertThat(held).containsExactlyInAnyOrder(names.get(0), names.get(399));
                assertThat(sent).as("commands for one held() of 400 names").containsExactly(Map.entry("mget", 1L));
            }
            assertThat(lock.held(names)).as("both released").isEmpty();
        }
    }
}
