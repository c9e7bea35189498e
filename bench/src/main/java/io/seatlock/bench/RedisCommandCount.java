package io.seatlock.bench;

import io.seatlock.localservers.LocalServers;
import io.seatlock.localservers.RedisServer;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Redis commands one acquire+release costs, from {@code INFO commandstats} before and after a single-threaded run. */
record RedisCommandCount(double perOperation, String mix) {

    private static final Pattern CMDSTAT = Pattern.compile("cmdstat_([a-z_|]+):([^\\r\\n]*)");

    static RedisCommandCount of(LockRoundTrip.Impl impl, int operations) throws Exception {
        RedisServer redis = LocalServers.redis();
        try (LockRoundTrip.Locker locker = LockRoundTrip.create(impl, redis)) {
            for (int i = 0; i < 200; i++) { // connect, load scripts
                locker.acquireRelease("bench:count:" + i);
            }
            Map<String, Long> before = stats(redis, "calls");
            for (int i = 0; i < operations; i++) {
                locker.acquireRelease("bench:count:" + (i % 100));
            }
            Map<String, Long> after = stats(redis, "calls");
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

    /** One field of {@code INFO commandstats} ({@code calls}, {@code usec}: both count up) by lower-case command. */
    static Map<String, Long> stats(RedisServer redis, String field) {
        String info = redis.with(r -> r.info("commandstats"));
        Map<String, Long> values = new TreeMap<>();
        Matcher m = CMDSTAT.matcher(info);
        while (m.find()) {
            for (String pair : m.group(2).split(",")) {
                if (pair.startsWith(field + "=")) {
                    values.put(m.group(1), Long.parseLong(pair.substring(field.length() + 1)));
                }
            }
        }
        return values;
    }
}
