package io.seatlock.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Runs the benchmarks side by side on the same servers and writes Markdown tables and PNG plots to
 * {@code bench/results}. Arguments: {@code lock}, {@code onsale}, {@code growth}, {@code replicas}, {@code postgres}, {@code handover},
 * {@code crowd} or {@code all}; {@code observed}, {@code herd} and {@code mysql} on their own.
 */
public final class BenchMain {

    private static final Path OUT = Path.of(System.getProperty("bench.out", "results"));

    private BenchMain() {
    }

    /** What this run was asked for, for each result file's provenance. */
    private static String benchArgs = "all";

    public static void main(String[] args) throws Exception {
        String what = args.length > 0 ? args[0] : "all";
        benchArgs = String.join(" ", args.length > 0 ? List.of(args) : List.of(what));
        Files.createDirectories(OUT);
        if (what.equals("lock") || what.equals("all")) {
            lockRoundTrip();
        }
        if (what.equals("onsale") || what.equals("all")) {
            onSale();
        }
        if (what.equals("growth") || what.equals("all")) {
            growth();
        }
        if (what.equals("replicas") || what.equals("all")) {
            replicatedGrants();
        }
        if (what.equals("lettuce")) {
            lettuceGoals();
        }
        if (what.equals("jedis")) {
            jedisGoals();
        }
        if (what.equals("jedispath")) {
            write("jedis-path.md", HotPathProfile.jedis());
        }
        if (what.equals("hotpath")) {
            write("hot-path.md", HotPathProfile.run());
        }
        if (what.equals("mysql")) {
            mysqlStore();
        }
        if (what.equals("herd")) {
            write("herd.md", Herd.run(java.time.Duration.ofSeconds(Integer.getInteger("bench.herd.seconds", 15))));
        }
        if (what.equals("crowd") || what.equals("all")) {
            onSaleCrowd();
        }
        if (what.equals("observed") || what.equals("all")) {
            observedCost();
        }
        if (what.equals("postgres") || what.equals("all")) {
            postgresStore();
        }
        if (what.equals("handover") || what.equals("all")) {
            write("hand-over.md", HandOver.run(Integer.getInteger("bench.rounds", 300), Integer.getInteger("bench.leader-rounds", 50),
                    Integer.getInteger("bench.warm-up-rounds", 100)));
        }
        System.exit(0);
    }

    /** Every contender, the two raw floors first. */
    static final List<String> ALL = List.of("RAW_LETTUCE", "RAW_JEDIS", "SHARED_LOCK", "SHARED_LOCK_JEDIS", "SHEDLOCK", "SHEDLOCK_SAFE",
            "REDISSON_RLOCK", "REDISSON_FENCED", "SPRING_INTEGRATION");
    private static final List<String> FLOORS_AND_OURS = List.of("RAW_LETTUCE", "RAW_JEDIS", "SHARED_LOCK", "SHARED_LOCK_JEDIS");
    /** The libraries the Jedis transport is held against. */
    private static final List<String> PEERS = List.of("SHEDLOCK", "SHEDLOCK_SAFE", "REDISSON_RLOCK", "REDISSON_FENCED",
            "SPRING_INTEGRATION");
    private static final int FORKS = Integer.getInteger("bench.forks", 3);

    /** Several forks (a fork's JIT and memory layout vary), each 2 x 2 s warm-up and 4 x 3 s measurement. */
    private static Collection<RunResult> jmh(int threads, List<String> impls, Mode mode, boolean perOpProfilers)
            throws Exception {
        OptionsBuilder options = new OptionsBuilder();
        options.include(LockRoundTrip.class.getName() + ".acquireRelease").threads(threads).forks(FORKS)
                .warmupIterations(2).warmupTime(TimeValue.seconds(2))
                .measurementIterations(4).measurementTime(TimeValue.seconds(3))
                .jvmArgs("-Xmx1g").mode(mode)
                .param("impl", impls.toArray(String[]::new)).shouldFailOnError(true);
        if (perOpProfilers) {
            options.addProfiler(GCProfiler.class).addProfiler(ClientCpuProfiler.class);
        }
        return new Runner(options.build()).run();
    }

    /** Mean and half-width of JMH's 99.9 % confidence interval over all forks' iterations. */
    record Figure(double mean, double error) {
        static Figure of(Result<?> r, double scale) {
            double error = Double.isNaN(r.getScoreError()) ? 0 : r.getScoreError();
            return new Figure(r.getScore() * scale, error * scale);
        }

        String show(String format) {
            return String.format(Locale.ROOT, format + " ± " + format, mean, error);
        }
    }

    record Row(Figure opsPerSecond, Figure bytesPerOp, Figure cpuMicrosPerOp) {
    }

    private static void lockRoundTrip() throws Exception {
        Map<String, Double> commands = new LinkedHashMap<>();
        Map<String, String> commandMix = new LinkedHashMap<>();
        for (String impl : ALL) {
            RedisCommandCount count = RedisCommandCount.of(LockRoundTrip.Impl.valueOf(impl), 2_000);
            commands.put(impl, count.perOperation());
            commandMix.put(impl, count.mix());
        }
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%d forks x 4 x 3 s per figure (after 2 x 2 s "
                + "warm-up); ± is JMH's 99.9 %% confidence half-width.%n%n", FORKS));
        md.append("| library | threads | ops/s | vs raw Lettuce | vs faster raw floor | bytes allocated/op | "
                + "client CPU µs/op | Redis commands/op |\n|---|---|---|---|---|---|---|---|\n");
        Map<Integer, Map<String, Row>> rows = new LinkedHashMap<>();
        for (int threads : new int[] {1, 8, 16, 32, 64}) {
            List<String> impls = threads == 1 || threads == 8 ? ALL : FLOORS_AND_OURS;
            Map<String, Row> byImpl = new LinkedHashMap<>();
            for (RunResult r : jmh(threads, impls, Mode.Throughput, true)) {
                byImpl.put(r.getParams().getParam("impl"), new Row(Figure.of(r.getPrimaryResult(), 1e6),
                        Figure.of(r.getSecondaryResults().get("gc.alloc.rate.norm"), 1),
                        Figure.of(r.getSecondaryResults().get("client.cpu.us/op"), 1)));
            }
            rows.put(threads, byImpl);
            double lettuce = byImpl.get("RAW_LETTUCE").opsPerSecond().mean();
            double floor = Math.max(lettuce, byImpl.get("RAW_JEDIS").opsPerSecond().mean());
            for (String impl : impls) {
                Row row = byImpl.get(impl);
                md.append(String.format(Locale.ROOT, "| %s | %d | %s | %.2fx | %.2fx | %s | %s | %.1f |%n", impl, threads,
                        row.opsPerSecond().show("%.0f"), row.opsPerSecond().mean() / lettuce,
                        row.opsPerSecond().mean() / floor, row.bytesPerOp().show("%.0f"),
                        row.cpuMicrosPerOp().show("%.1f"), commands.get(impl)));
            }
        }
        md.append("\nRedis commands per acquire+release, counted from `INFO commandstats` (commands a script runs "
                + "are counted too):\n\n| library | commands |\n|---|---|\n");
        commandMix.forEach((impl, mix) -> md.append("| ").append(impl).append(" | ").append(mix).append(" |\n"));

        md.append("\n| library | threads | p50 µs (mean of forks, min-max) | p99 µs | p50 vs raw Lettuce |\n|---|---|---|---|---|\n");
        for (int threads : new int[] {1, 8}) {
            Map<String, double[]> p50s = new LinkedHashMap<>();
            for (RunResult r : jmh(threads, FLOORS_AND_OURS, Mode.SampleTime, false)) {
                double[] perFork = r.getBenchmarkResults().stream()
                        .mapToDouble(b -> b.getPrimaryResult().getStatistics().getPercentile(50)).toArray();
                double p99 = r.getPrimaryResult().getStatistics().getPercentile(99);
                double[] v = new double[] {mean(perFork), min(perFork), max(perFork), p99};
                p50s.put(r.getParams().getParam("impl"), v);
            }
            double lettuce = p50s.get("RAW_LETTUCE")[0];
            p50s.forEach((impl, v) -> md.append(String.format(Locale.ROOT, "| %s | %d | %.0f (%.0f-%.0f) | %.0f | %.2fx |%n",
                    impl, threads, v[0], v[1], v[2], v[3], v[0] / lettuce)));
        }
        write("lock-round-trip.md", md.toString());
        plotThreads(rows);
    }

    /**
     * The Lettuce transport's goals, measured interleaved: for each of {@code bench.forks} rounds, raw Lettuce and
     * seatlock one fork each, back to back (order alternating), so a drift of the shared machine hits both; the
     * ratio is taken per round, then its mean and 95 % confidence interval (Student's t over the rounds).
     */
    private static void lettuceGoals() throws Exception {
        int rounds = Integer.getInteger("bench.forks", 5);
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%d rounds; each round one fork per library "
                + "(2 x 2 s warm-up, 4 x 3 s measured), the two back to back.%n%n", rounds));
        md.append("| threads | measure | raw Lettuce (mean) | seatlock (mean) | seatlock / raw, mean [95 % CI] | per round |\n"
                + "|---|---|---|---|---|---|\n");
        for (int threads : new int[] {1, 8}) {
            double[] raw = new double[rounds];
            double[] ours = new double[rounds];
            double[] rawP50 = new double[rounds];
            double[] oursP50 = new double[rounds];
            double[] rawBytes = new double[rounds];
            double[] oursBytes = new double[rounds];
            for (int round = 0; round < rounds; round++) {
                List<String> order = round % 2 == 0 ? List.of("RAW_LETTUCE", "SHARED_LOCK") : List.of("SHARED_LOCK", "RAW_LETTUCE");
                for (String impl : order) {
                    RunResult throughput = singleFork(threads, impl, Mode.Throughput, 2, 4, 3, true);
                    (impl.equals("RAW_LETTUCE") ? raw : ours)[round] = throughput.getPrimaryResult().getScore() * 1e6;
                    (impl.equals("RAW_LETTUCE") ? rawBytes : oursBytes)[round] =
                            throughput.getSecondaryResults().get("gc.alloc.rate.norm").getScore();
                    if (threads == 1) {
                        double p50 = oneFork(threads, impl, Mode.SampleTime).getPrimaryResult().getStatistics().getPercentile(50);
                        (impl.equals("RAW_LETTUCE") ? rawP50 : oursP50)[round] = p50;
                    }
                }
            }
            md.append(ratioRow(threads, "ops/s", raw, ours, "%.0f"));
            md.append(ratioRow(threads, "bytes/op", rawBytes, oursBytes, "%.0f"));
            if (threads == 1) {
                md.append(ratioRow(threads, "p50 µs", rawP50, oursP50, "%.0f"));
            }
        }
        write("lettuce-goals.md", md.toString());
    }

    /**
     * The Jedis transport's goals, interleaved: each round runs one fork of every contender at 1, 8 and 64 threads
     * (the order rotating from round to round), so a ratio compares forks that ran minutes apart at most. Forks are
     * shorter than the table's (1 x 2 s warm-up, 3 x 2 s measured) so that five rounds fit in about twenty minutes.
     */
    private static void jedisGoals() throws Exception {
        int rounds = Integer.getInteger("bench.forks", 5);
        List<String> contenders = new ArrayList<>(List.of("RAW_JEDIS", "RAW_JEDIS_POOLED", "SHARED_LOCK_JEDIS"));
        contenders.addAll(PEERS);
        int[] threadCounts = {1, 8, 64};
        Map<String, double[]> ops = new LinkedHashMap<>();
        Map<String, double[]> calls = new LinkedHashMap<>();
        Map<String, double[]> bytes = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            for (int t = 0; t < threadCounts.length; t++) {
                for (int i = 0; i < contenders.size(); i++) {
                    String impl = contenders.get((i + round) % contenders.size());
                    int threads = threadCounts[t];
                    RunResult r = shortFork(threads, impl);
                    // completed pairs, not calls: a refused acquire returns at once (Spring Integration's registry refuses some)
                    ops.computeIfAbsent(impl + "@" + threads, k -> new double[rounds])[round] =
                            r.getSecondaryResults().get("completed").getScore() * 1e6;
                    calls.computeIfAbsent(impl + "@" + threads, k -> new double[rounds])[round] = r.getPrimaryResult().getScore() * 1e6;
                    bytes.computeIfAbsent(impl + "@" + threads, k -> new double[rounds])[round] =
                            r.getSecondaryResults().get("gc.alloc.rate.norm").getScore();
                }
            }
        }
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%d rounds; each round one fork per library and "
                + "thread count (1 x 2 s warm-up, 3 x 2 s measured), in an order that rotates from round to round.%n%n", rounds));
        md.append("ops/s counts the pairs that completed (acquired, then released); a call whose acquire was refused "
                + "is in calls/s and bytes/call only.\n\n| threads | library | ops/s (mean) | calls/s (mean) | bytes/call (mean) |\n"
                + "|---|---|---|---|---|\n");
        for (int threads : threadCounts) {
            for (String impl : contenders) {
                md.append(String.format(Locale.ROOT, "| %d | %s | %.0f | %.0f | %.0f |%n", threads, impl,
                        mean(ops.get(impl + "@" + threads)), mean(calls.get(impl + "@" + threads)),
                        mean(bytes.get(impl + "@" + threads))));
            }
        }
        md.append("\n| threads | measure | raw / other (mean) | seatlock on Jedis (mean) | seatlock / other, mean [95 % CI] | per round |\n"
                + "|---|---|---|---|---|---|\n");
        for (int threads : threadCounts) {
            md.append(ratioRow(threads, "ops/s vs RAW_JEDIS", ops.get("RAW_JEDIS@" + threads),
                    ops.get("SHARED_LOCK_JEDIS@" + threads), "%.0f"));
            md.append(ratioRow(threads, "bytes/op vs RAW_JEDIS", bytes.get("RAW_JEDIS@" + threads),
                    bytes.get("SHARED_LOCK_JEDIS@" + threads), "%.0f"));
            // Jedis' pooled client pays the pool's bookkeeping per command as the transport does; the floor above does not
            md.append(ratioRow(threads, "ops/s vs RAW_JEDIS_POOLED", ops.get("RAW_JEDIS_POOLED@" + threads),
                    ops.get("SHARED_LOCK_JEDIS@" + threads), "%.0f"));
            md.append(ratioRow(threads, "bytes/op vs RAW_JEDIS_POOLED", bytes.get("RAW_JEDIS_POOLED@" + threads),
                    bytes.get("SHARED_LOCK_JEDIS@" + threads), "%.0f"));
            for (String peer : PEERS) {
                md.append(ratioRow(threads, "ops/s vs " + peer, ops.get(peer + "@" + threads),
                        ops.get("SHARED_LOCK_JEDIS@" + threads), "%.0f"));
            }
        }
        write("jedis-goals.md", md.toString());
    }

    /** The Jedis goals' fork: 1 x 2 s warm-up, 3 x 2 s measured, with allocation per operation. */
    private static RunResult shortFork(int threads, String impl) throws Exception {
        return singleFork(threads, impl, Mode.Throughput, 1, 3, 2, true);
    }

    /** The Lettuce goals' latency fork: 2 x 2 s warm-up, 4 x 3 s measured, as the table's. */
    private static RunResult oneFork(int threads, String impl, Mode mode) throws Exception {
        return singleFork(threads, impl, mode, 2, 4, 3, false);
    }

    private static RunResult singleFork(int threads, String impl, Mode mode, int warmups, int measurements,
                                        int measuredSeconds, boolean allocation) throws Exception {
        OptionsBuilder options = new OptionsBuilder();
        options.include(LockRoundTrip.class.getName() + ".acquireRelease").threads(threads).forks(1)
                .warmupIterations(warmups).warmupTime(TimeValue.seconds(2))
                .measurementIterations(measurements).measurementTime(TimeValue.seconds(measuredSeconds))
                .jvmArgs("-Xmx1g").mode(mode).param("impl", impl).shouldFailOnError(true);
        if (allocation) {
            options.addProfiler(GCProfiler.class);
        }
        return new Runner(options.build()).run().iterator().next();
    }

    private static String ratioRow(int threads, String measure, double[] raw, double[] ours, String format) {
        int n = raw.length;
        double[] ratios = new double[n];
        for (int i = 0; i < n; i++) {
            ratios[i] = ours[i] / raw[i];
        }
        double mean = mean(ratios);
        double variance = java.util.Arrays.stream(ratios).map(r -> (r - mean) * (r - mean)).sum() / (n - 1);
        double[] t95 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262};
        double half = (n >= 2 && n - 2 < t95.length ? t95[n - 2] : 1.96) * Math.sqrt(variance / n);
        StringBuilder perRound = new StringBuilder();
        for (double r : ratios) {
            perRound.append(perRound.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", r));
        }
        return String.format(Locale.ROOT, "| %d | %s | " + format + " | " + format + " | %.2fx [%.2f, %.2f] | %s |%n", threads,
                measure, mean(raw), mean(ours), mean, mean - half, mean + half, perRound);
    }

    /** Grants counted by the master alone against grants a replica acknowledged (WAIT), at 1 and 8 threads. */
    private static void replicatedGrants() throws Exception {
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%d forks x 4 x 3 s per figure (after 2 x 2 s "
                + "warm-up), master and one replica on loopback; ± is JMH's 99.9 %% confidence half-width.%n%n", FORKS));
        md.append("| replicas | threads | ops/s | vs 0 | p50 µs | p99 µs |\n|---|---|---|---|---|---|\n");
        for (int threads : new int[] {1, 8}) {
            Map<String, Figure> ops = new LinkedHashMap<>();
            Map<String, double[]> percentiles = new LinkedHashMap<>();
            for (Mode mode : new Mode[] {Mode.Throughput, Mode.SampleTime}) {
                OptionsBuilder options = new OptionsBuilder();
                options.include(ReplicatedGrant.class.getName() + ".acquireRelease").threads(threads).forks(FORKS)
                        .warmupIterations(2).warmupTime(TimeValue.seconds(2))
                        .measurementIterations(4).measurementTime(TimeValue.seconds(3))
                        .jvmArgs("-Xmx1g").mode(mode).shouldFailOnError(true);
                for (RunResult r : new Runner(options.build()).run()) {
                    String replicas = r.getParams().getParam("replicas");
                    if (mode == Mode.Throughput) {
                        ops.put(replicas, Figure.of(r.getPrimaryResult(), 1e6));
                    } else {
                        var stats = r.getPrimaryResult().getStatistics();
                        percentiles.put(replicas, new double[] {stats.getPercentile(50), stats.getPercentile(99)});
                    }
                }
            }
            double unacknowledged = ops.get("0").mean();
            for (String replicas : ops.keySet()) {
                md.append(String.format(Locale.ROOT, "| %s | %d | %s | %.2fx | %.0f | %.0f |%n", replicas, threads,
                        ops.get(replicas).show("%.0f"), ops.get(replicas).mean() / unacknowledged,
                        percentiles.get(replicas)[0], percentiles.get(replicas)[1]));
            }
        }
        write("replicated-grants.md", md.toString());
    }

    private static double mean(double[] v) {
        return java.util.Arrays.stream(v).average().orElse(Double.NaN);
    }

    private static double min(double[] v) {
        return java.util.Arrays.stream(v).min().orElse(Double.NaN);
    }

    private static double max(double[] v) {
        return java.util.Arrays.stream(v).max().orElse(Double.NaN);
    }

    private static void plotThreads(Map<Integer, Map<String, Row>> rows) throws Exception {
        XYChart chart = new XYChartBuilder().width(800).height(450).title("Lock acquire+release vs client threads")
                .xAxisTitle("threads").yAxisTitle("ops/s (mean of forks)").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(0.0);
        for (String impl : FLOORS_AND_OURS) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> err = new ArrayList<>();
            rows.forEach((threads, byImpl) -> {
                x.add(threads.doubleValue());
                y.add(byImpl.get(impl).opsPerSecond().mean());
                err.add(byImpl.get(impl).opsPerSecond().error());
            });
            chart.addSeries(impl, x, y, err);
        }
        BitmapEncoder.saveBitmap(chart, OUT.resolve("lock-threads").toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /**
     * Both scenarios, bouncer on and off, in alternating rounds (on, off, on, off, ...) so that a drift of
     * the shared machine hits both sides alike; every round's row, then the mean per scenario and side.
     */
    private static void onSale() throws Exception {
        int rounds = Integer.getInteger("bench.onsale.rounds", 3);
        StringBuilder md = new StringBuilder("| scenario | bouncer | requests | requests/s | winners | winners p50 / p99 ms | "
                + "losers p50 / p99 ms | PostgreSQL transactions | max row-lock waiters | Redis commands |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n");
        Map<String, List<OnSale.Result>> byCase = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (boolean bouncer : new boolean[] {true, false}) {
                try (OnSale sale = new OnSale(bouncer)) {
                    sale.warmUp();
                    List<String> seats = sale.eventWithSeats(400);
                    OnSale.Result hot = sale.run("2,000 buyers, one hot seat", 2000, i -> "1A");
                    sale.eventWithSeats(400);
                    OnSale.Result spread = sale.run("2,000 buyers over 400 seats", 2000, OnSale.randomSeat(seats, 42 + round));
                    for (OnSale.Result r : List.of(hot, spread)) {
                        md.append(r.row()).append('\n');
                        byCase.computeIfAbsent(r.scenario() + "|" + r.bouncer(), k -> new ArrayList<>()).add(r);
                    }
                }
            }
        }
        md.append(String.format(Locale.ROOT, "%nMean of %d rounds (min-max):%n%n", rounds))
                .append("| scenario | bouncer | requests/s | PostgreSQL transactions | Redis commands per attempt |\n|---|---|---|---|---|\n");
        byCase.forEach((key, results) -> {
            double[] rate = results.stream().mapToDouble(OnSale.Result::requestsPerSecond).toArray();
            double tx = results.stream().mapToLong(OnSale.Result::pgTransactions).average().orElse(0);
            double commands = results.stream().mapToDouble(r -> (double) r.redisCommands() / r.requests()).average().orElse(0);
            String[] parts = key.split("\\|");
            md.append(String.format(Locale.ROOT, "| %s | %s | %.0f (%.0f-%.0f) | %.0f | %.2f |%n", parts[0], parts[1],
                    mean(rate), min(rate), max(rate), tx, commands));
        });
        write("on-sale.md", md.toString());
    }

    /**
     * The buyers beside no crowd, a streaming crowd and a polling crowd, back to back in each round (the order turning
     * round by round), so both crowds' ratios come from the same run.
     */
    private static void onSaleCrowd() throws Exception {
        int viewers = Integer.getInteger("bench.viewers", 2000);
        int rounds = Integer.getInteger("bench.onsale.rounds", 10);
        List<String> crowds = List.of("none", "streaming", "polling");
        StringBuilder md = new StringBuilder();
        try (OnSale sale = new OnSale(true)) {
            sale.warmUp();
            List<String> seats = sale.eventWithSeats(400);
            // Warm up with the crowds too, until the JIT has settled: two replicas' worth of code compiles for minutes
            // on 2 cores, and a round it falls in would lose that CPU to it, with or without a crowd.
            var jit = ManagementFactory.getCompilationMXBean();
            long warmUpStarted = System.nanoTime();
            int warmUps = 0;
            double jitShare;
            do {
                long compiledBefore = jit.getTotalCompilationTime();
                long started = System.nanoTime();
                try (OnSale.Crowd crowd = sale.crowd(viewers, warmUps % 2 == 0)) {
                    sale.run("warm-up with a crowd", 2000, OnSale.randomSeat(seats, ++warmUps));
                }
                sale.eventWithSeats(400);
                jitShare = (jit.getTotalCompilationTime() - compiledBefore) / ((System.nanoTime() - started) / 1e6);
            } while (jitShare > 0.10 && warmUps < 30);
            md.append(String.format(Locale.ROOT, "Warmed up with %d booking rounds beside a crowd, streaming and polling in turn "
                    + "(%.0f s); in the last one the JIT's compilation time (summed over its threads) was %.0f %% of the round's.%n%n",
                    warmUps, (System.nanoTime() - warmUpStarted) / 1e9, jitShare * 100));
            for (boolean streaming : new boolean[] {true, false}) {
                double[] cost = sale.crowdCost(viewers, 10, streaming);
                String served = streaming
                        ? String.format(Locale.ROOT, "streaming the map: %.0f maps/s pushed (%d streams ended early)", cost[2], (long) cost[3])
                        : String.format(Locale.ROOT, "polling every 2 s: %.0f views/s answered (%d failed, %.0f %% of them 304 Not Modified)",
                                cost[2], (long) cost[3], cost[9] * 100);
                md.append(String.format(Locale.ROOT, "%d viewers alone, 10 s, a seat held every 250 ms, %s; Redis commands "
                        + "per viewer-second %.3f, PostgreSQL transactions per viewer-second %.4f; this JVM (both replicas and the "
                        + "crowd's client) used %.2f of the machine's %d cores (the replicas' Tomcat threads and map pushes %.2f, the "
                        + "crowd's client threads %.2f), the machine's CPU was %.0f %% busy.%n%n", viewers, served,
                        cost[0], cost[1], cost[4], (int) cost[6], cost[7], cost[8], cost[5] * 100));
            }
            md.append("| round | crowd | buyers | winners | winners p50 / p99 ms | losers p50 / p99 ms | requests/s | "
                    + "maps pushed or views answered during the round |\n|---|---|---|---|---|---|---|---|\n");
            Map<String, List<OnSale.Result>> byCrowd = new LinkedHashMap<>();
            for (int round = 1; round <= rounds; round++) {
                for (int i = 0; i < crowds.size(); i++) {
                    String kind = crowds.get((i + round - 1) % crowds.size());
                    sale.eventWithSeats(400);
                    OnSale.Result r;
                    long served = 0;
                    if (kind.equals("none")) {
                        r = sale.run("no crowd", 2000, OnSale.randomSeat(seats, 42 + round));
                    } else {
                        try (OnSale.Crowd crowd = sale.crowd(viewers, kind.equals("streaming"))) {
                            Thread.sleep(2000);
                            long before = crowd.answered();
                            r = sale.run(kind + " crowd", 2000, OnSale.randomSeat(seats, 42 + round));
                            served = crowd.answered() - before;
                        }
                    }
                    byCrowd.computeIfAbsent(kind, k -> new ArrayList<>()).add(r);
                    md.append(String.format(Locale.ROOT, "| %d | %s | %d | %d | %.1f / %.1f | %.1f / %.1f | %.0f | %s |%n", round,
                            kind.equals("none") ? "none" : viewers + " " + kind, r.requests(), r.winners(), r.winnerP50(),
                            r.winnerP99(), r.loserP50(), r.loserP99(), r.requestsPerSecond(),
                            kind.equals("none") ? "-" : Long.toString(served)));
                }
            }
            ToDoubleFunction<OnSale.Result> slowerP50 = r -> Math.max(r.winnerP50(), r.loserP50());
            ToDoubleFunction<OnSale.Result> slowerP99 = r -> Math.max(r.winnerP99(), r.loserP99());
            md.append(String.format(Locale.ROOT, "%nBuyers' latency, the slower of winners and losers, %d rounds; the ratio is "
                    + "taken per round (with and without the crowd, in the same round), then its mean and 95 %% confidence "
                    + "interval:%n%n", rounds));
            md.append("| viewers | crowd, measure | without a crowd (mean) | with it (mean) | with / without, mean [95 % CI] | per round |\n"
                    + "|---|---|---|---|---|---|\n");
            for (String kind : crowds.subList(1, crowds.size())) {
                md.append(ratioRow(viewers, kind + ", p50 ms", perRound(byCrowd.get("none"), slowerP50),
                        perRound(byCrowd.get(kind), slowerP50), "%.1f"));
                md.append(ratioRow(viewers, kind + ", p99 ms", perRound(byCrowd.get("none"), slowerP99),
                        perRound(byCrowd.get(kind), slowerP99), "%.1f"));
            }
        }
        write(OnSale.SEND_ETAGS ? "on-sale-crowd.md" : "on-sale-crowd-no-etags.md", md.toString());
    }

    private static double[] perRound(List<OnSale.Result> rounds, ToDoubleFunction<OnSale.Result> measure) {
        return rounds.stream().mapToDouble(measure).toArray();
    }

    private static void growth() throws Exception {
        List<Integer> sizes = List.of(1_000, 10_000, 100_000, 1_000_000);
        List<Double> bookingRate = new ArrayList<>();
        StringBuilder md = new StringBuilder("| seats | booking attempts | requests/s | winners | winners p99 ms |\n|---|---|---|---|---|\n");
        try (OnSale sale = new OnSale(true)) {
            sale.warmUp();
            for (int size : sizes) {
                List<String> seats = sale.eventWithSeats(size);
                OnSale.Result r = sale.run(size + " seats", 4000, OnSale.randomSeat(seats, size));
                bookingRate.add(r.requestsPerSecond());
                md.append(String.format(Locale.ROOT, "| %d | %d | %.0f | %d | %.1f |%n", size, r.requests(),
                        r.requestsPerSecond(), r.winners(), r.winnerP99()));
            }
        }
        write("growth.md", md.toString());
        XYChart bookings = new XYChartBuilder().width(800).height(450).title("Booking requests/s vs seats in the event")
                .xAxisTitle("seats").yAxisTitle("requests/s").build();
        bookings.getStyler().setXAxisLogarithmic(true);
        bookings.getStyler().setYAxisMin(0.0);
        bookings.addSeries("two app-seats replicas, bouncer on", sizes.stream().map(Integer::doubleValue).toList(), bookingRate);
        BitmapEncoder.saveBitmap(bookings, OUT.resolve("booking-seats").toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /**
     * The PostgreSQL store against ShedLock's and Spring Integration's JDBC locks on the same database: pairs per
     * second at 1, 8 and 64 threads (JMH, {@code bench.forks} forks, all three in one run), and the hand-over.
     */
    private static void postgresStore() throws Exception {
        List<String> impls = List.of("SEATLOCK_POSTGRES", "SHEDLOCK_JDBC", "SPRING_INTEGRATION_JDBC");
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "Acquire-and-release pairs per second, each "
                + "thread on names of its own; %d forks x 4 x 3 s per figure (after 2 x 2 s warm-up); ± is JMH's 99.9 %% "
                + "confidence half-width; a ratio's range divides the low end of one figure by the high end of the "
                + "other, and the reverse. seatlock's pair carries a fencing token; neither other does.%n%n", FORKS));
        md.append("| threads | seatlock `PostgresLock` | ShedLock `JdbcTemplateLockProvider` (db time) "
                + "| Spring Integration `JdbcLockRegistry` | seatlock / ShedLock | seatlock / Spring Integration |\n"
                + "|---|---|---|---|---|---|\n");
        for (int threads : new int[] {1, 8, 64}) {
            OptionsBuilder options = new OptionsBuilder();
            options.include(PostgresRoundTrip.class.getName() + ".acquireRelease").threads(threads).forks(FORKS)
                    .warmupIterations(2).warmupTime(TimeValue.seconds(2))
                    .measurementIterations(4).measurementTime(TimeValue.seconds(3))
                    .jvmArgs("-Xmx1g").mode(Mode.Throughput)
                    .param("impl", impls.toArray(String[]::new)).shouldFailOnError(true);
            Map<String, Figure> byImpl = new LinkedHashMap<>();
            for (RunResult r : new Runner(options.build()).run()) {
                byImpl.put(r.getParams().getParam("impl"), Figure.of(r.getPrimaryResult(), 1e6));
            }
            Figure ours = byImpl.get("SEATLOCK_POSTGRES");
            md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s |%n", threads, ours.show("%.0f"),
                    byImpl.get("SHEDLOCK_JDBC").show("%.0f"), byImpl.get("SPRING_INTEGRATION_JDBC").show("%.0f"),
                    ratio(ours, byImpl.get("SHEDLOCK_JDBC")), ratio(ours, byImpl.get("SPRING_INTEGRATION_JDBC"))));
        }
        md.append("\nHand-over, from the holder's release call to the waiter holding the lock (300 rounds after 30 "
                + "uncounted):\n\n");
        md.append(PostgresHandOver.run(Integer.getInteger("bench.rounds", 300), 30));
        write("postgres-store.md", md.toString());
    }

    /** The MySQL store against ShedLock's and Spring Integration's JDBC locks on one MariaDB, and its hand-over. */
    private static void mysqlStore() throws Exception {
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "MariaDB server %s. Acquire-and-release pairs "
                + "per second, each thread on names of its own; %d forks x 4 x 3 s per figure (after 2 x 2 s warm-up); ± is "
                + "JMH's 99.9 %% confidence half-width; a ratio's range divides the low end of one figure by the high end "
                + "of the other, and the reverse. seatlock's pair carries a fencing token; neither other does.%n%n",
                MySqlHandOver.serverVersion(), FORKS));
        md.append("| threads | seatlock `MySqlLock` | ShedLock `JdbcTemplateLockProvider` (db time) "
                + "| Spring Integration `JdbcLockRegistry` | seatlock / ShedLock | seatlock / Spring Integration |\n"
                + "|---|---|---|---|---|---|\n");
        for (int threads : new int[] {1, 8, 64}) {
            OptionsBuilder options = new OptionsBuilder();
            options.include(MySqlRoundTrip.class.getName() + ".acquireRelease").threads(threads).forks(FORKS)
                    .warmupIterations(2).warmupTime(TimeValue.seconds(2))
                    .measurementIterations(4).measurementTime(TimeValue.seconds(3))
                    .jvmArgs("-Xmx1g").mode(Mode.Throughput).shouldFailOnError(true);
            Map<String, Figure> byImpl = new LinkedHashMap<>();
            for (RunResult r : new Runner(options.build()).run()) {
                byImpl.put(r.getParams().getParam("impl"), Figure.of(r.getPrimaryResult(), 1e6));
            }
            Figure ours = byImpl.get("SEATLOCK_MYSQL");
            md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s |%n", threads, ours.show("%.0f"),
                    byImpl.get("SHEDLOCK_JDBC").show("%.0f"), byImpl.get("SPRING_INTEGRATION_JDBC").show("%.0f"),
                    ratio(ours, byImpl.get("SHEDLOCK_JDBC")), ratio(ours, byImpl.get("SPRING_INTEGRATION_JDBC"))));
        }
        md.append("\n").append(MySqlHandOver.run(Integer.getInteger("bench.rounds", 300), 30));
        write("mysql-store.md", md.toString());
    }

    /**
     * What observing costs on the hot path: the Lettuce lock plain and observed (the starter's wrapper and listener,
     * on an ObservationRegistry with no handler), side by side in one run, at 1 and 8 threads.
     */
    private static void observedCost() throws Exception {
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "Acquire-and-release pairs per second on "
                + "Lettuce; %d forks x 4 x 3 s per figure (after 2 x 2 s warm-up); ± is JMH's 99.9 %% confidence "
                + "half-width. Observed: `LockObservations.wrap` and its listener on an `ObservationRegistry` with no "
                + "handler, as the starter wires it when the application has a registry but no tracing or metrics "
                + "handler. Metered: the lock an application with the starter, Actuator and `micrometer-registry-prometheus` "
                + "gets (a Spring Boot context of those auto-configurations alone): the observed lock, its observations "
                + "timed into the Prometheus registry, the store's meters registered at zero.%n%n"
                + "| threads | plain | observed | metered | observed / plain | metered / plain |%n|---|---|---|---|---|---|%n",
                FORKS));
        double plainPairsPerSecond = 0;
        double meteredPairsPerSecond = 0;
        for (int threads : new int[] {1, 8}) {
            Map<String, Figure> byImpl = new LinkedHashMap<>();
            for (RunResult r : jmh(threads, List.of("SHARED_LOCK", "SHARED_LOCK_OBSERVED", "SHARED_LOCK_METERED"),
                    Mode.Throughput, false)) {
                byImpl.put(r.getParams().getParam("impl"), Figure.of(r.getPrimaryResult(), 1e6));
            }
            if (threads == 1) {
                plainPairsPerSecond = byImpl.get("SHARED_LOCK").mean();
                meteredPairsPerSecond = byImpl.get("SHARED_LOCK_METERED").mean();
            }
            md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s |%n", threads,
                    byImpl.get("SHARED_LOCK").show("%.0f"), byImpl.get("SHARED_LOCK_OBSERVED").show("%.0f"),
                    byImpl.get("SHARED_LOCK_METERED").show("%.0f"),
                    ratio(byImpl.get("SHARED_LOCK_OBSERVED"), byImpl.get("SHARED_LOCK")),
                    ratio(byImpl.get("SHARED_LOCK_METERED"), byImpl.get("SHARED_LOCK"))));
        }
        md.append(String.format(Locale.ROOT, "%nAt 1 thread a metered pair takes %.1f µs against %.1f µs plain.%n",
                1e6 / meteredPairsPerSecond, 1e6 / plainPairsPerSecond));
        OptionsBuilder overhead = new OptionsBuilder();
        overhead.include(ObservedOverhead.class.getName() + ".acquireRelease").threads(1).forks(FORKS)
                .warmupIterations(3).warmupTime(TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(TimeValue.seconds(2))
                .jvmArgs("-Xmx1g").mode(Mode.AverageTime).shouldFailOnError(true);
        Map<String, Figure> nanos = new LinkedHashMap<>();
        for (RunResult r : new Runner(overhead.build()).run()) {
            nanos.put(r.getParams().getParam("impl"), Figure.of(r.getPrimaryResult(), 1));
        }
        double added = nanos.get("OBSERVED").mean() - nanos.get("PLAIN").mean();
        double metered = nanos.get("METERED").mean() - nanos.get("PLAIN").mean();
        md.append(String.format(Locale.ROOT, "%nWith no store in the way (the in-memory lock, 1 thread, %d forks x 5 x 2 s): "
                + "a pair takes %s ns plain, %s ns observed and %s ns metered (the store's own meters aside: the "
                + "in-memory lock has no listener), so the wrapper adds %.0f ns a pair with no handler and %.0f ns timed "
                + "into Prometheus: %.2f %% and %.2f %% of a Lettuce pair at 1 thread above (%.0f µs).%n", FORKS,
                nanos.get("PLAIN").show("%.0f"), nanos.get("OBSERVED").show("%.0f"), nanos.get("METERED").show("%.0f"),
                added, metered, 100 * added / (1e9 / plainPairsPerSecond), 100 * metered / (1e9 / plainPairsPerSecond),
                1e6 / plainPairsPerSecond));
        write("observed-cost.md", md.toString());
    }

    private static String ratio(Figure a, Figure b) {
        return String.format(Locale.ROOT, "%.2fx [%.2f, %.2f]", a.mean() / b.mean(),
                (a.mean() - a.error()) / (b.mean() + b.error()), (a.mean() + a.error()) / Math.max(1e-9, b.mean() - b.error()));
    }

    private static void write(String name, String markdown) throws Exception {
        Files.writeString(OUT.resolve(name), Provenance.header(benchArgs) + markdown);
        System.out.println("\n" + name + "\n" + markdown);
    }
}
