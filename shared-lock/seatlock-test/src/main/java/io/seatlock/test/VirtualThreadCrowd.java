package io.seatlock.test;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.OverlapImpact;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A crowd of virtual threads contending on a few names of a lock, for a lock's own tests: each thread takes one of the
 * names once (a blocking {@code acquire}), holds it for a moment and releases it. Asserts that every thread got its
 * name, that no two held one name at once, and that no carrier thread was pinned while they did (JFR's
 * {@code jdk.VirtualThreadPinned}, which Java 24 and later record when a virtual thread blocks inside a native frame or
 * a class initializer). One acquire runs first, on a virtual thread, before the count: loading the lock's classes and
 * initializing the JDK's virtual-thread I/O poller pin a carrier once each, by design; a class first loaded during the
 * crowd (on a path the first acquire did not take) may still pin once, and such pins are allowed, at most a few. So are
 * the JDK's own critical sections (a failed freeze with HotSpot's reason 2, {@code freeze_pinned_cs}): only the JDK can
 * enter one ({@code Continuation.pin} is not exported), for instance while one virtual thread unparks another, and they
 * last microseconds; each must end within {@link #JDK_CRITICAL_SECTION_BOUND}, and a few per hundred threads at most.
 * Needs Java 21 or later; on an older runtime the test is skipped, saying so.
 */
public final class VirtualThreadCrowd {

    private static final String PINNED = "jdk.VirtualThreadPinned";
    /** Pins while loading a class that a crowd of any size may show: a class loads once. */
    private static final int MAX_CLASS_LOADS = 50;
    /** The longest a pin inside the JDK's own critical section may last: JFR's default threshold for reporting one. */
    private static final Duration JDK_CRITICAL_SECTION_BOUND = Duration.ofMillis(20);
    /** HotSpot's reason for a freeze that failed inside a critical section (its {@code freeze_pinned_cs}). */
    private static final String CRITICAL_SECTION = "Freeze or preempt failed (2)";

    private VirtualThreadCrowd() {
    }

    /**
     * Runs the crowd and checks it.
     *
     * @param lock    the lock
     * @param threads how many virtual threads
     * @param names   over how many names
     * @throws Exception if the crowd could not be run
     */
    public static void run(DistributedLock lock, int threads, int names) throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21 or later; this is Java "
                + Runtime.version().feature() + " (the suites also run on Java 25)");
        List<Pin> pinned = new CopyOnWriteArrayList<>();
        ConcurrentHashMap<String, AtomicInteger> holders = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger granted = new AtomicInteger();
        String prefix = "vt-" + Long.toHexString(System.nanoTime()) + ":";
        // one acquire first, on a virtual thread: it loads the lock's classes and initializes the JDK's virtual-thread
        // I/O poller, each of which pins a carrier once (a class initializer), before the count starts
        ExecutorService warmUp = threadPerTask(virtualThreads());
        try {
            warmUp.submit(() -> {
                try (LockLease warm = lock.acquire(prefix + "warm-up", Duration.ofSeconds(30),
                        OverlapImpact.BROKEN_PROMISE, Duration.ofSeconds(30))) {
                    return warm.fencingToken();
                }
            }).get(1, TimeUnit.MINUTES);
        } finally {
            warmUp.shutdownNow();
        }
        try (RecordingStream jfr = new RecordingStream()) {
            jfr.enable(PINNED).withStackTrace();
            jfr.onEvent(PINNED, event -> pinned.add(Pin.of(event)));
            jfr.startAsync();
            ExecutorService crowd = threadPerTask(virtualThreads());
            try {
                List<Future<?>> done = new CopyOnWriteArrayList<>();
                for (int i = 0; i < threads; i++) {
                    String name = prefix + (i % names);
                    done.add(crowd.submit(() -> {
                        try (LockLease lease = lock.acquire(name, Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE,
                                Duration.ofMinutes(2))) {
                            AtomicInteger holding = holders.computeIfAbsent(name, n -> new AtomicInteger());
                            if (holding.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            Thread.sleep(1); // the holder's work: a virtual thread parks here, its carrier does not
                            holding.decrementAndGet();
                            granted.incrementAndGet();
                            return lease.fencingToken();
                        }
                    }));
                }
                for (Future<?> thread : done) {
                    thread.get(3, TimeUnit.MINUTES);
                }
            } finally {
                crowd.shutdownNow();
            }
            RecordingStream.class.getMethod("stop").invoke(jfr); // delivers what was recorded (Java 20+)
        }
        assertThat(overlaps.get()).as("two holders of one name at once").isZero();
        assertThat(granted.get()).as("threads that got their name").isEqualTo(threads);
        List<String> loading = pinned.stream().filter(Pin::loadingAClass).map(Pin::toString).toList();
        List<Pin> inTheJdk = pinned.stream().filter(Pin::inAJdkCriticalSection).toList();
        assertThat(pinned.stream().filter(pin -> !pin.loadingAClass() && !pin.inAJdkCriticalSection()).map(Pin::toString))
                .as("carrier threads pinned by a virtual thread (JFR %s), other than while loading a class or inside"
                        + " the JDK's own critical section", PINNED).isEmpty();
        assertThat(loading).as("pinned while loading a class: once per class, so a few at most").hasSizeLessThan(
                MAX_CLASS_LOADS);
        assertThat(inTheJdk.stream().filter(pin -> pin.duration().compareTo(JDK_CRITICAL_SECTION_BOUND) > 0)
                .map(Pin::toString)).as("pinned inside the JDK's critical section for longer than %s",
                JDK_CRITICAL_SECTION_BOUND).isEmpty();
        assertThat(inTheJdk).as("pinned inside the JDK's critical section: a few per hundred threads at most")
                .hasSizeLessThanOrEqualTo(Math.max(5, threads / 20));
    }

    /** One {@code jdk.VirtualThreadPinned} event: why (Java 24 and later say), how long, and where. */
    private record Pin(String reason, Duration duration, List<String> frames) {

        static Pin of(RecordedEvent event) {
            return new Pin(event.hasField("pinnedReason") ? event.getString("pinnedReason") : "", event.getDuration(),
                    event.getStackTrace() == null ? List.of() : event.getStackTrace().getFrames().stream().limit(40)
                            .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName()).toList());
        }

        /** Pinned while loading or initializing a class: each class once, whatever the crowd's size. */
        boolean loadingAClass() {
            return frames.stream().anyMatch(frame -> frame.contains("ClassLoader.loadClass")) || reason.startsWith("Waited for initialization");
        }

        /** Pinned because the JDK itself was inside {@code Continuation.pin}, which no other code can call. */
        boolean inAJdkCriticalSection() {
            return reason.equals(CRITICAL_SECTION);
        }

        @Override
        public String toString() {
            return (reason.isEmpty() ? "" : reason + " ") + duration + " " + frames;
        }
    }

    /** {@code Thread.ofVirtual().factory()}, called by reflection: the kit is built for Java 17. */
    private static ThreadFactory virtualThreads() throws ReflectiveOperationException {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        return (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
    }

    /** {@code Executors.newThreadPerTaskExecutor(factory)}, likewise. */
    private static ExecutorService threadPerTask(ThreadFactory factory) throws ReflectiveOperationException {
        return (ExecutorService) java.util.concurrent.Executors.class
                .getMethod("newThreadPerTaskExecutor", ThreadFactory.class).invoke(null, factory);
    }
}
