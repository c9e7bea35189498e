package io.seatlock.bench;

import io.seatlock.localservers.LocalServers;
import one.profiler.AsyncProfiler;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The one-thread hot path under a wall-clock profile (async-profiler, {@code event=wall}): acquire + release on
 * one thread, raw Lettuce and seatlock one after the other, 10 s warm-up, 15 s profiled. Writes each profile as
 * collapsed stacks (not kept in git) and a summary of where the calling thread's wall time went, with the Redis process's CPU per
 * pair; then, at 1 and 8 threads, the client's and Redis' CPU per pair ({@code bench/results/hot-path.md}).
 */
final class HotPathProfile {

    private HotPathProfile() {
    }

    static String run() throws Exception {
        StringBuilder md = new StringBuilder();
        for (LockRoundTrip.Impl impl : new LockRoundTrip.Impl[] {LockRoundTrip.Impl.RAW_LETTUCE, LockRoundTrip.Impl.SHARED_LOCK}) {
            try (LockRoundTrip.Locker locker = LockRoundTrip.create(impl, LocalServers.redis())) {
                loop(locker, 10_000_000_000L, null);
                AsyncProfiler profiler = AsyncProfiler.getInstance();
                profiler.execute("start,event=wall,interval=50us,threads");
                long[] latencies = new long[2_000_000];
                long serverBefore = serverMicros();
                int n = loop(locker, 15_000_000_000L, latencies);
                double serverPerPair = (serverMicros() - serverBefore) / (double) n;
                Path collapsed = Path.of(System.getProperty("bench.out", "results"), "hot-path-" + impl + ".collapsed");
                profiler.execute("stop,file=" + collapsed.toAbsolutePath() + ",collapsed");
                int sampled = Math.min(n, latencies.length);
                Arrays.sort(latencies, 0, sampled);
                md.append(String.format(Locale.ROOT, "%s: %d pairs in 15 s, p50 %.0f µs, Redis CPU %.1f µs per pair "
                        + "(`INFO cpu`, user + system); the calling thread's samples:%n%n", impl, n, latencies[sampled / 2] / 1e3, serverPerPair));
                summarize(collapsed, md);
            }
        }
        for (int threads : new int[] {1, 8}) { // at 1 thread each µs Redis adds is on the caller's path
            cpuPerPair(md, threads, LockRoundTrip.Impl.RAW_LETTUCE, LockRoundTrip.Impl.SHARED_LOCK);
            md.append('\n');
        }
        return md.toString();
    }

    /**
     * The Jedis transport against raw Jedis, ShedLock's two providers and the Lettuce transport: each pair's CPU at
     * 1, 8 and 64 threads (client and Redis, and Redis' by command), and where the transport's bytes per pair are
     * allocated (async-profiler, {@code event=alloc}, one thread, 10 s), by the deepest frame of seatlock's own code (else Jedis', else the
     * JDK's) ({@code bench/results/jedis-path.md}).
     */
    static String jedis() throws Exception {
        StringBuilder md = new StringBuilder();
        for (int threads : new int[] {1, 8, 64}) { // at 1 thread Redis is seldom interrupted: its command times are cleanest
            // ShedLock's providers and seatlock's Lettuce transport share one multiplexed connection: what that saves Redis
            cpuPerPair(md, threads, LockRoundTrip.Impl.RAW_JEDIS, LockRoundTrip.Impl.SHARED_LOCK_JEDIS,
                    LockRoundTrip.Impl.SHEDLOCK, LockRoundTrip.Impl.SHEDLOCK_SAFE, LockRoundTrip.Impl.SHARED_LOCK);
            md.append('\n');
        }
        try (LockRoundTrip.Locker locker = LockRoundTrip.create(LockRoundTrip.Impl.SHARED_LOCK_JEDIS, LocalServers.redis())) {
            loop(locker, 5_000_000_000L, null);
            AsyncProfiler profiler = AsyncProfiler.getInstance();
            profiler.execute("start,event=alloc");
            int n = loop(locker, 10_000_000_000L, null);
            Path collapsed = Path.of(System.getProperty("bench.out", "results"), "jedis-path-alloc.collapsed");
            profiler.execute("stop,file=" + collapsed.toAbsolutePath() + ",collapsed,total");
            Map<String, Long> bySite = new TreeMap<>();
            long total = 0;
            for (String line : Files.readAllLines(collapsed)) {
                int space = line.lastIndexOf(' ');
                long bytes = Long.parseLong(line.substring(space + 1));
                String[] frames = line.substring(0, space).split(";");
                total += bytes;
                bySite.merge(allocationSite(frames), bytes, Long::sum);
            }
            long all = total;
            md.append(String.format(Locale.ROOT, "%nseatlock on Jedis, one thread, %d pairs in 10 s: %.0f bytes sampled per "
                    + "pair, by where they were allocated:%n%n| site (deepest seatlock frame, else Jedis', else the JDK's) "
                    + "| allocated type | share |%n|---|---|---|%n", n, all / (double) n));
            bySite.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(15).forEach(e ->
                    md.append(String.format(Locale.ROOT, "| %s | %.1f %% |%n", e.getKey(), 100.0 * e.getValue() / all)));
        }
        return md.toString();
    }

    /** "frame | type": the allocating type is the last frame; the site is the deepest frame of ours, else Jedis'. */
    private static String allocationSite(String[] frames) {
        String type = frames[frames.length - 1];
        String site = null;
        for (int i = frames.length - 2; i >= 0 && site == null; i--) {
            if (frames[i].startsWith("io/seatlock/lock/")) {
                site = frames[i];
            }
        }
        for (int i = frames.length - 2; i >= 0 && site == null; i--) {
            if (frames[i].startsWith("redis/clients/")) {
                site = frames[i];
            }
        }
        return (site == null ? frames[Math.max(0, frames.length - 2)] : site).replace('/', '.') + " | " + type;
    }

    /**
     * At {@code threads} threads (5 s warm-up, 15 s measured), each pair's CPU: the client's (this JVM) and Redis'; then,
     * from the same windows, Redis' time per pair by command ({@code INFO commandstats}).
     */
    private static void cpuPerPair(StringBuilder md, int threads, LockRoundTrip.Impl... impls) throws Exception {
        md.append(String.format(Locale.ROOT, "At %d threads (5 s warm-up, 15 s measured), where each pair's CPU goes:%n%n"
                + "| library | pairs/s | client CPU µs per pair | Redis CPU µs per pair | both |%n|---|---|---|---|---|%n", threads));
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        Map<LockRoundTrip.Impl, CommandTime> commandTimes = new LinkedHashMap<>();
        for (LockRoundTrip.Impl impl : impls) {
            try (LockRoundTrip.Locker locker = LockRoundTrip.create(impl, LocalServers.redis())) {
                threads(locker, threads, 5_000_000_000L);
                long serverBefore = serverMicros();
                Map<String, Long> commandsBefore = LocalServers.redis().commandStats("usec");
                long clientBefore = os.getProcessCpuTime();
                long pairs = threads(locker, threads, 15_000_000_000L);
                double client = (os.getProcessCpuTime() - clientBefore) / 1e3 / pairs;
                double server = (serverMicros() - serverBefore) / (double) pairs;
                commandTimes.put(impl, CommandTime.between(impl, commandsBefore, LocalServers.redis().commandStats("usec"), pairs,
                        server));
                md.append(String.format(Locale.ROOT, "| %s | %.0f | %.1f | %.1f | %.1f |%n", impl, pairs / 15.0, client, server,
                        client + server));
            }
        }
        CommandTime.table(md, commandTimes);
    }

    /**
     * Redis' time per pair by command, from {@code INFO commandstats}' {@code usec}. A command a script runs is counted
     * under its own name and inside its {@code EVALSHA} too, so a script's own time (Lua, its arguments, setting up its
     * calls) is the EVALSHA's minus the commands its script ran; and what {@code INFO cpu} has beyond the commands sent
     * is reading, parsing and answering them (the event loop, the sockets).
     *
     * @param micros       µs per pair by command (lower case)
     * @param sent         the commands the client sends itself; every other one ran inside a script
     * @param serverMicros Redis' CPU per pair, all of it
     */
    private record CommandTime(Map<String, Double> micros, Set<String> sent, double serverMicros) {

        /** What each contender whose commands are known sends itself: the raw floors a SET and an EVALSHA, seatlock two EVALSHAs. */
        private static final Map<LockRoundTrip.Impl, Set<String>> SENT = Map.of(
                LockRoundTrip.Impl.RAW_JEDIS, Set.of("set", "evalsha"),
                LockRoundTrip.Impl.RAW_LETTUCE, Set.of("set", "evalsha"),
                LockRoundTrip.Impl.SHARED_LOCK_JEDIS, Set.of("evalsha"),
                LockRoundTrip.Impl.SHARED_LOCK, Set.of("evalsha"));

        static CommandTime between(LockRoundTrip.Impl impl, Map<String, Long> before, Map<String, Long> after, long pairs,
                                   double serverMicros) {
            Map<String, Double> perPair = new TreeMap<>();
            after.forEach((command, usec) -> {
                double spent = (usec - before.getOrDefault(command, 0L)) / (double) pairs;
                if (spent >= 0.005 && !command.equals("info")) { // not a connection's HELLO, nor this very INFO
                    perPair.put(command, spent);
                }
            });
            return new CommandTime(perPair, SENT.getOrDefault(impl, Set.of()), serverMicros);
        }

        private double sum(boolean sentByClient) {
            return micros.entrySet().stream().filter(e -> sent.contains(e.getKey()) == sentByClient)
                    .mapToDouble(Map.Entry::getValue).sum();
        }

        static void table(StringBuilder md, Map<LockRoundTrip.Impl, CommandTime> byImpl) {
            Set<String> names = new TreeSet<>();
            byImpl.values().stream().filter(t -> !t.sent().isEmpty()).forEach(t -> names.addAll(t.micros().keySet()));
            md.append("\nRedis' time per pair by command, µs (`INFO commandstats`, the same windows). EVALSHA includes the "
                    + "commands its scripts ran, each also in its own column; \"scripts' own\" is EVALSHA minus those "
                    + "(Lua, the arguments, setting up each call); \"outside commands\" is Redis' CPU per pair beyond the "
                    + "commands the client sent (reading, parsing, answering). Redis times a command by the clock, so time "
                    + "the OS gave another thread during a command counts too: the more client threads share the two "
                    + "cores, the higher the command columns and the lower \"outside commands\":\n\n| library |");
            names.forEach(n -> md.append(' ').append(n.toUpperCase(Locale.ROOT)).append(" |"));
            md.append(" scripts' own | in commands | outside commands |\n|---|");
            names.forEach(n -> md.append("---|"));
            md.append("---|---|---|\n");
            byImpl.forEach((impl, t) -> {
                if (t.sent().isEmpty()) {
                    return; // which of its commands ran inside a script is not known here
                }
                md.append("| ").append(impl).append(" |");
                names.forEach(n -> md.append(String.format(Locale.ROOT, " %.2f |", t.micros().getOrDefault(n, 0.0))));
                double inCommands = t.sum(true);
                md.append(String.format(Locale.ROOT, " %.2f | %.2f | %.2f |%n",
                        t.micros().getOrDefault("evalsha", 0.0) - t.sum(false), inCommands, t.serverMicros() - inCommands));
            });
        }
    }

    private static long threads(LockRoundTrip.Locker locker, int threads, long nanos) throws Exception {
        java.util.concurrent.atomic.AtomicLong pairs = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        java.util.List<java.util.concurrent.Future<?>> all = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) {
            all.add(pool.submit(() -> {
                pairs.addAndGet(loop(locker, nanos, null));
                return null;
            }));
        }
        for (var f : all) {
            f.get();
        }
        pool.shutdown();
        return pairs.get();
    }

    /** Microseconds of CPU the Redis process used so far (user + system: commands, scripts and network I/O). */
    private static long serverMicros() {
        double seconds = 0;
        for (String line : LocalServers.redis().with(r -> r.info("cpu")).split("\r?\n")) {
            if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
                seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return (long) (seconds * 1e6);
    }

    private static int loop(LockRoundTrip.Locker locker, long nanos, long[] latencies) throws Exception {
        LockRoundTrip.Keys keys = new LockRoundTrip.Keys();
        long end = System.nanoTime() + nanos;
        int n = 0;
        while (System.nanoTime() < end) {
            long start = System.nanoTime();
            if (!locker.acquireRelease(keys.next())) {
                throw new IllegalStateException("an uncontended acquire+release failed");
            }
            if (latencies != null && n < latencies.length) {
                latencies[n] = System.nanoTime() - start;
            }
            n++;
        }
        return n;
    }

    /** The caller thread's samples ("main"), by the first frame that tells what it was doing. */
    private static void summarize(Path collapsed, StringBuilder md) throws Exception {
        Map<String, Long> byWhat = new TreeMap<>();
        long total = 0;
        for (String line : Files.readAllLines(collapsed)) {
            if (!line.startsWith("[main")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            long samples = Long.parseLong(line.substring(space + 1));
            String stack = line.substring(0, space);
            total += samples;
            byWhat.merge(category(stack), samples, Long::sum);
        }
        md.append("| what the caller thread did | share of its wall time |\n|---|---|\n");
        long all = total;
        byWhat.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).forEach(e ->
                md.append(String.format(Locale.ROOT, "| %s | %.1f %% |%n", e.getKey(), 100.0 * e.getValue() / all)));
        md.append('\n');
    }

    private static String category(String stack) {
        boolean parked = stack.contains("LockSupport.park") || stack.contains("Unsafe.park");
        String where = stack.contains("RedisLockClient.attempt") ? "acquire"
                : stack.contains("RedisLease.release") ? "release"
                : stack.contains("evalsha") ? "EVALSHA (raw release)" : "SET NX PX (raw acquire)";
        return where + (parked ? ", waiting for the answer (parked)" : ", running");
    }
}
