package io.seatlock.bench;

import io.micrometer.observation.ObservationRegistry;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.micrometer.LockObservations;
import io.seatlock.test.InMemoryLock;
import io.seatlock.test.ManualClock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What the observed wrapper adds to one acquire and release, with no store in the way: the in-memory lock plain and
 * observed on a registry without a handler, in nanoseconds per pair. Set beside a pair's round trip to a store, it
 * is the wrapper's share of a real pair.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ObservedOverhead {

    @Param({"PLAIN", "OBSERVED"})
    public String impl;

    private DistributedLock lock;

    @Setup(Level.Trial)
    public void setUp() {
        InMemoryLock memory = new InMemoryLock(new ManualClock(), "bench");
        lock = impl.equals("PLAIN") ? memory : new LockObservations(ObservationRegistry.create()).wrap(memory);
    }

    @Benchmark
    public boolean acquireRelease() {
        LockLease lease = lock.tryAcquire("bench:overhead", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK).orElse(null);
        return lease != null && lease.release() != null;
    }
}
