package io.seatlock.bench;

import io.seatlock.localservers.LocalServers;
import io.seatlock.localservers.RedisServer;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Redis commands one acquire+release costs, from {@code INFO commandstats} before and after a single-threaded run. */
record RedisCommandCount(double perOperation, String mix) {

    static RedisCommandCount of(LockRoundTrip.Impl impl, int operations) throws Exception {
        RedisServer redis = LocalServers.redis();
        try (LockRoundTrip.Locker locker = LockRoundTrip.create(impl, redis)) {
            for (int i = 0; i < 200; i++) { // connect, load scripts
                locker.acquireRelease("bench:count:" + i);
            }
            Map<String, Long> before = redis.commandCalls();
            for (int i = 0; i < operations; i++) {
                locker.acquireRelease("bench:count:" + (i % 100));
            }
            Map<String, Long> after = redis.commandCalls();
            Map<String, Double> perOp = new TreeMap<>();
            after.forEach((cmd, calls) -> {
                long delta = calls - before.getOrDefault(cmd, 0L);
                if (delta > 0 && !cmd.equals("info")) {
                    perOp.put(cmd, (double) delta / operations);
                }
            });
            double total = perOp.values().stream().mapToDouble(Double::doubleValue).sum();
            String mix = perOp.entrySet().stream().filter(e -> e.getValue() >= 0.05)
                    .map(e -> String.format(java.util.Locale.ROOT, "%s %.1f", e.getKey().toUpperCase(), e.getValue()))
                    .collect(Collectors.joining(", "));
            return new RedisCommandCount(total, mix);
        }
    }
}
