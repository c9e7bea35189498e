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
import org.openjdk.jmh.annotations.TearDown;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What the observed wrapper adds to one acquire and release, with no store in the way: the in-memory lock plain,
 * observed on a registry without a handler, and metered (observed as an application with Actuator and a Prometheus
 * registry has it: each observation timed into that registry, with the starter's histogram buckets), in nanoseconds
 * per pair. Set beside a pair's round trip to a store, it is the wrapper's share of a real pair.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ObservedOverhead {

    @Param({"PLAIN", "OBSERVED", "METERED"})
    public String impl;

    private DistributedLock lock;
    private ConfigurableApplicationContext app;

    /** The application's own lock, in memory: the starter's metrics and observations are wired around it. */
    @Configuration(proxyBeanMethods = false)
    static class MemoryLockApp {
        @Bean
        InMemoryLock memoryLock() {
            return new InMemoryLock(new ManualClock(), "bench");
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        if (impl.equals("METERED")) {
            app = new SpringApplicationBuilder(LockRoundTrip.MeteredApp.class, MemoryLockApp.class)
                    .web(WebApplicationType.NONE).run("--spring.main.banner-mode=off", "--logging.level.root=WARN");
            app.getBean(PrometheusMeterRegistry.class); // there, or this fails
            lock = app.getBean(LockObservations.class).wrap(app.getBean(InMemoryLock.class));
            return;
        }
        InMemoryLock memory = new InMemoryLock(new ManualClock(), "bench");
        lock = impl.equals("PLAIN") ? memory : new LockObservations(ObservationRegistry.create()).wrap(memory);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (app != null) {
            app.close();
        }
    }

    @Benchmark
    public boolean acquireRelease() {
        LockLease lease = lock.tryAcquire("bench:overhead", Duration.ofSeconds(10), OverlapImpact.WASTED_WORK).orElse(null);
        return lease != null && lease.release() != null;
    }
}
