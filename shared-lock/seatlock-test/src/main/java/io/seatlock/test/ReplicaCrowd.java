package io.seatlock.test;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.OverlapImpact;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A crowd of waiters over several replicas of a lock, for a lock's own tests: every thread of every replica asks for
 * one name at the same moment with a blocking {@code acquire}, holds it for a millisecond and releases it. Asserts that
 * each waiter held the name within its {@code maxWait} (none starved), that no two held it at once, and that the
 * fencing tokens grew in the order the name was granted.
 */
public final class ReplicaCrowd {

    private static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private ReplicaCrowd() {
    }

    /**
     * Runs the crowd and checks it.
     *
     * @param replicas          the lock as each replica has it (one client each)
     * @param threadsPerReplica how many threads wait on each
     * @param name              the one name they all want
     * @param maxWait           how long each waits at most
     * @return the fencing tokens, in the order the name was granted
     * @throws Exception if the crowd could not be run
     */
    public static List<Long> handOver(List<? extends DistributedLock> replicas, int threadsPerReplica, String name,
                                      Duration maxWait) throws Exception {
        int waiters = replicas.size() * threadsPerReplica;
        ExecutorService threads = Executors.newFixedThreadPool(waiters);
        CountDownLatch ready = new CountDownLatch(waiters);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger holding = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Long> tokens = new ArrayList<>();
        try {
            List<Future<String>> outcomes = new ArrayList<>();
            for (int i = 0; i < waiters; i++) {
                DistributedLock replica = replicas.get(i % replicas.size());
                outcomes.add(threads.submit(() -> {
                    ready.countDown();
                    go.await();
                    try (LockLease lease = replica.acquire(name, Duration.ofSeconds(30), OverlapImpact.BROKEN_PROMISE,
                            maxWait)) {
                        if (holding.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        synchronized (tokens) {
                            tokens.add(lease.fencingToken().value());
                        }
                        LockSupport.parkNanos(HOLD_NANOS);
                        holding.decrementAndGet();
                        return "held";
                    } catch (LockNotAcquiredException e) {
                        return "starved: " + e.getMessage();
                    }
                }));
            }
            assertThat(ready.await(1, TimeUnit.MINUTES)).as("all %d waiters started", waiters).isTrue();
            go.countDown();
            List<String> results = new ArrayList<>();
            for (Future<String> outcome : outcomes) {
                results.add(outcome.get(maxWait.toMillis() + 60_000, TimeUnit.MILLISECONDS));
            }
            assertThat(results).as("every waiter held the name within its maxWait of %s", maxWait)
                    .allMatch("held"::equals);
            assertThat(overlaps).as("two holders at once").hasValue(0);
            synchronized (tokens) {
                assertThat(tokens).as("fencing tokens in grant order").hasSize(waiters).isSorted().doesNotHaveDuplicates();
                return List.copyOf(tokens);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
