package io.seatlock.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the benchmarks side by side on the same servers and writes Markdown tables and PNG plots to
 * {@code bench/results}. Arguments: {@code lock}, {@code onsale}, {@code growth} or {@code all}.
 */
public final class BenchMain {

    private static final Path OUT = Path.of(System.getProperty("bench.out", "results"));

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        String what = args.length > 0 ? args[0] : "all";
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
        System.exit(0);
    }

    private static Collection<RunResult> jmh(int threads, List<String> impls, Mode... modes) throws Exception {
        OptionsBuilder options = new OptionsBuilder();
        options.include(LockRoundTrip.class.getName() + ".acquireRelease").threads(threads).forks(1)
                .warmupIterations(2).warmupTime(TimeValue.seconds(2))
                .measurementIterations(3).measurementTime(TimeValue.seconds(2))
                .param("impl", impls.toArray(String[]::new)).shouldFailOnError(true);
        for (Mode mode : modes) {
            options.mode(mode);
        }
        return new Runner(options.build()).run();
    }

    private static void lockRoundTrip() throws Exception {
        List<String> impls = List.of("RAW_LETTUCE", "SHARED_LOCK", "SHEDLOCK", "SHEDLOCK_SAFE", "REDISSON_RLOCK",
                "REDISSON_FENCED", "SPRING_INTEGRATION");
        StringBuilder md = new StringBuilder("| library | threads | ops/s (acquire+release) | ops/s vs floor | p50 µs | p99 µs | p50 vs floor |\n"
                + "|---|---|---|---|---|---|---|\n");
        for (int threads : new int[] {1, 8}) {
            Map<String, double[]> byImpl = new LinkedHashMap<>();
            for (RunResult r : jmh(threads, impls, Mode.Throughput, Mode.SampleTime)) {
                double[] v = byImpl.computeIfAbsent(r.getParams().getParam("impl"), k -> new double[3]);
                if (r.getParams().getMode() == Mode.Throughput) {
                    v[0] = r.getPrimaryResult().getScore() * 1e6;
                } else {
                    v[1] = r.getPrimaryResult().getStatistics().getPercentile(50);
                    v[2] = r.getPrimaryResult().getStatistics().getPercentile(99);
                }
            }
            double[] floor = byImpl.get("RAW_LETTUCE");
            for (String impl : impls) {
                double[] v = byImpl.get(impl);
                md.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.2fx | %.0f | %.0f | %.2fx |%n", impl, threads,
                        v[0], v[0] / floor[0], v[1], v[2], v[1] / floor[1]));
            }
        }
        write("lock-round-trip.md", md.toString());
    }

    private static void onSale() throws Exception {
        StringBuilder md = new StringBuilder("| scenario | bouncer | requests | requests/s | winners | winners p50 / p99 ms | "
                + "losers p50 / p99 ms | PostgreSQL transactions | max row-lock waiters | Redis commands |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (boolean bouncer : new boolean[] {true, false}) {
            try (OnSale sale = new OnSale(bouncer)) {
                sale.warmUp();
                List<String> seats = sale.eventWithSeats(400);
                md.append(sale.run("2,000 buyers, one hot seat", 2000, i -> "1A").row()).append('\n');
                sale.eventWithSeats(400);
                md.append(sale.run("2,000 buyers over 400 seats", 2000, OnSale.randomSeat(seats, 42)).row()).append('\n');
            }
        }
        write("on-sale.md", md.toString());
    }

    private static void growth() throws Exception {
        List<Integer> threads = List.of(1, 2, 4, 8, 16, 32, 64);
        Map<String, List<Double>> opsByImpl = new LinkedHashMap<>();
        for (int t : threads) {
            for (RunResult r : jmh(t, List.of("RAW_LETTUCE", "SHARED_LOCK"), Mode.Throughput)) {
                opsByImpl.computeIfAbsent(r.getParams().getParam("impl"), k -> new ArrayList<>())
                        .add(r.getPrimaryResult().getScore() * 1e6);
            }
        }
        StringBuilder md = new StringBuilder("| threads | raw Lettuce ops/s | shared-lock ops/s | ratio |\n|---|---|---|---|\n");
        for (int i = 0; i < threads.size(); i++) {
            double raw = opsByImpl.get("RAW_LETTUCE").get(i);
            double ours = opsByImpl.get("SHARED_LOCK").get(i);
            md.append(String.format(Locale.ROOT, "| %d | %.0f | %.0f | %.2fx |%n", threads.get(i), raw, ours, ours / raw));
        }
        List<Integer> sizes = List.of(1_000, 10_000, 100_000, 1_000_000);
        List<Double> bookingRate = new ArrayList<>();
        md.append("\n| seats | booking attempts | requests/s | winners | winners p99 ms |\n|---|---|---|---|---|\n");
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

        XYChart locks = new XYChartBuilder().width(800).height(450).title("Lock acquire+release vs client threads")
                .xAxisTitle("threads").yAxisTitle("ops/s").build();
        locks.getStyler().setXAxisLogarithmic(true);
        locks.getStyler().setYAxisMin(0.0);
        List<Double> x = threads.stream().map(Integer::doubleValue).toList();
        opsByImpl.forEach((impl, ops) -> locks.addSeries(impl, x, ops));
        BitmapEncoder.saveBitmap(locks, OUT.resolve("lock-threads").toString(), BitmapEncoder.BitmapFormat.PNG);
        XYChart bookings = new XYChartBuilder().width(800).height(450).title("Booking requests/s vs seats in the event")
                .xAxisTitle("seats").yAxisTitle("requests/s").build();
        bookings.getStyler().setXAxisLogarithmic(true);
        bookings.getStyler().setYAxisMin(0.0);
        bookings.addSeries("two app-seats replicas, bouncer on", sizes.stream().map(Integer::doubleValue).toList(), bookingRate);
        BitmapEncoder.saveBitmap(bookings, OUT.resolve("booking-seats").toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void write(String name, String markdown) throws Exception {
        Files.writeString(OUT.resolve(name), markdown);
        System.out.println("\n" + name + "\n" + markdown);
    }
}
