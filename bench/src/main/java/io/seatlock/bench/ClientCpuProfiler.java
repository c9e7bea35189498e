package io.seatlock.bench;

import com.sun.management.OperatingSystemMXBean;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;

/**
 * Client CPU per operation: the forked benchmark JVM's CPU time over an iteration (every thread: the
 * callers, the client's I/O threads, GC) divided by the operations it did. Unlike ops/s it does not
 * depend on how busy the shared machine is, only on what the client itself spends. JIT compiler threads
 * are counted too; after warm-up they add little.
 */
public final class ClientCpuProfiler implements InternalProfiler {

    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private long cpuAtStart;

    @Override
    public String getDescription() {
        return "client (benchmark JVM) CPU time per operation";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        cpuAtStart = OS.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        long cpu = OS.getProcessCpuTime() - cpuAtStart;
        long ops = result.getMetadata().getAllOps();
        double perOp = ops == 0 ? Double.NaN : (double) cpu / ops / 1_000.0;
        return List.of(new ScalarResult("client.cpu.us/op", perOp, "us/op", AggregationPolicy.AVG));
    }
}
