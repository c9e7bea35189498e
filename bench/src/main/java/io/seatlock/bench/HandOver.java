package io.seatlock.bench;

import io.seatlock.lock.redis.RedisTimeouts;
import io.lettuce.core.RedisURI;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.leader.Candidate;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.redis.lettuce.LettuceTransport;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.LocalServers;
import io.seatlock.localservers.RedisServer;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Release to next holder, measured from the holder's release call to the moment the waiter holds the lock:
 * seatlock's waiting {@code acquire} and Redisson's {@code RLock.lock()} (both woken by a published release),
 * and a seatlock leader hand-over when the leader closes its election. Each waiter is given 50 ms to be
 * waiting before the release, as a waiter that arrived earlier would be. Each contender first runs uncounted
 * warm-up rounds, as JMH would: the first rounds open the release subscription and run cold code, and with
 * 300 rounds the p99 is the fourth-slowest, so a handful of cold rounds would otherwise decide it. The first
 * round is reported on its own.
 */
final class HandOver {

    private static final Duration WAITING_FOR = Duration.ofMillis(50);

    private HandOver() {
    }

    static String run(int rounds, int leaderRounds, int warmUpRounds) throws Exception {
        RedisServer redis = LocalServers.redis();
        StringBuilder md = new StringBuilder("| waiter | warm-up rounds | counted rounds | p50 ms | p99 ms | max ms "
                + "| the holder's release call (the leader's close) p50 ms | the five slowest counted rounds (round: ms (that call's ms)) "
                + "| first round ms |\n|---|---|---|---|---|---|---|---|---|\n");
        md.append(row("seatlock `acquire(name, ttl, impact, maxWait)`", seatlockWaiter(redis, warmUpRounds + rounds),
                warmUpRounds));
        md.append(row("Redisson `RLock.lock()`", redissonWaiter(redis, warmUpRounds + rounds), warmUpRounds));
        int leaderWarmUp = Math.min(warmUpRounds, leaderRounds);
        md.append(row("seatlock leader, leader closes its election", leaderHandOver(redis, leaderWarmUp + leaderRounds),
                leaderWarmUp));
        redis.deleteKeys("bench-ho:");
        redis.deleteKeys("bench-ho-r:");
        return md.toString();
    }

    /**
     * Percentiles of the rounds after the warm-up; the slowest of them by number (the first round is 1), each with how
     * long the holder's own release call took in it and "GC" where a collection ran in this JVM (the holder's and the
     * waiter's) during the round; and the first round.
     */
    private static String row(String what, Rounds all, int warmUp) {
        double[] counted = Arrays.copyOfRange(all.millis, warmUp, all.millis.length);
        double[] sorted = counted.clone();
        Arrays.sort(sorted);
        String slowest = IntStream.range(0, counted.length).boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> counted[i]).reversed()).limit(5)
                .map(i -> String.format(Locale.ROOT, "%d: %.2f (%.2f)%s", warmUp + i + 1, counted[i],
                        all.releaseCallMillis[warmUp + i], all.collected[warmUp + i] ? " GC" : ""))
                .collect(Collectors.joining(", "));
        double[] releaseCalls = Arrays.copyOfRange(all.releaseCallMillis, warmUp, all.millis.length);
        Arrays.sort(releaseCalls);
        return String.format(Locale.ROOT, "| %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %s | %.2f |%n", what, warmUp,
                sorted.length, sorted[sorted.length / 2], sorted[(int) Math.ceil(sorted.length * 0.99) - 1],
                sorted[sorted.length - 1], releaseCalls[releaseCalls.length / 2], slowest, all.millis[0]);
    }

    /**
     * Each round's release-to-next-holder time, how long the holder's release call took (a waiter's holder: one round
     * trip to Redis, so a slow one says the machine was slow then; a leader: its whole close, which also stops its
     * campaign thread and callbacks), and whether a garbage collection ran while the round lasted.
     */
    private static final class Rounds {
        final double[] millis;
        final double[] releaseCallMillis;
        final boolean[] collected;
        private long collectionsAtStart;

        Rounds(int rounds) {
            millis = new double[rounds];
            releaseCallMillis = new double[rounds];
            collected = new boolean[rounds];
        }

        /** Called just before the release: the round's clock and its GC count start here. */
        long start() {
            collectionsAtStart = collections();
            return System.nanoTime();
        }

        void end(int round, long startedAt, long releaseReturnedAt, long endedAt) {
            millis[round] = (endedAt - startedAt) / 1e6;
            releaseCallMillis[round] = (releaseReturnedAt - startedAt) / 1e6;
            collected[round] = collections() != collectionsAtStart;
        }

        private static long collections() {
            return ManagementFactory.getGarbageCollectorMXBeans().stream()
                    .mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
        }
    }

    private static RedisLockClient client(RedisServer redis, String name) {
        return RedisLockClient.over(
                LettuceTransport.standalone(RedisURI.create(redis.host(), redis.port()), RedisTimeouts.of(Duration.ofSeconds(2))),
                RedisLockSettings.defaults().withKeyPrefix("bench-ho:").withInstanceId(name), LockListener.NOOP);
    }

    private static Rounds seatlockWaiter(RedisServer redis, int rounds) throws Exception {
        Rounds timings = new Rounds(rounds);
        ExecutorService waiterThread = Executors.newSingleThreadExecutor();
        try (RedisLockClient holder = client(redis, "holder"); RedisLockClient waiter = client(redis, "waiter")) {
            for (int i = 0; i < rounds; i++) {
                String name = "handover-" + i;
                LockLease held = holder.tryAcquire(name, Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE).orElseThrow();
                Future<Long> acquiredAt = waiterThread.submit(() -> {
                    LockLease lease = waiter.acquire(name, Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE, Duration.ofSeconds(10));
                    long at = System.nanoTime();
                    lease.release();
                    return at;
                });
                Thread.sleep(WAITING_FOR.toMillis());
                long releasedAt = timings.start();
                held.release();
                long releaseReturnedAt = System.nanoTime();
                timings.end(i, releasedAt, releaseReturnedAt, acquiredAt.get(30, TimeUnit.SECONDS));
            }
        } finally {
            waiterThread.shutdownNow();
        }
        return timings;
    }

    private static Rounds redissonWaiter(RedisServer redis, int rounds) throws Exception {
        Rounds timings = new Rounds(rounds);
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + redis.host() + ":" + redis.port());
        RedissonClient holderClient = Redisson.create(config);
        RedissonClient waiterClient = Redisson.create(config);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < rounds; i++) {
                String name = "bench-ho-r:handover-" + i;
                CountDownLatch locked = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                Future<long[]> released = threads.submit(() -> {
                    RLock lock = holderClient.getLock(name);
                    lock.lock(10, TimeUnit.SECONDS);
                    locked.countDown();
                    release.await();
                    long at = System.nanoTime();
                    lock.unlock();
                    return new long[] {at, System.nanoTime()};
                });
                locked.await();
                Future<Long> acquiredAt = threads.submit(() -> {
                    RLock lock = waiterClient.getLock(name);
                    lock.lock(10, TimeUnit.SECONDS);
                    long at = System.nanoTime();
                    lock.unlock();
                    return at;
                });
                Thread.sleep(WAITING_FOR.toMillis());
                timings.start(); // the holder's thread takes the round's clock itself, once told to release
                release.countDown();
                long acquired = acquiredAt.get(30, TimeUnit.SECONDS);
                long[] releaseCall = released.get(30, TimeUnit.SECONDS);
                timings.end(i, releaseCall[0], releaseCall[1], acquired);
            }
        } finally {
            threads.shutdownNow();
            holderClient.shutdown();
            waiterClient.shutdown();
        }
        return timings;
    }

    private static Rounds leaderHandOver(RedisServer redis, int rounds) throws Exception {
        Rounds timings = new Rounds(rounds);
        try (RedisLockClient first = client(redis, "first"); RedisLockClient second = client(redis, "second")) {
            for (int i = 0; i < rounds; i++) {
                String group = "handover-" + i;
                CompletableFuture<Long> grantedAt = new CompletableFuture<>();
                LeaderElection leader = LeaderElection.forGroup(first, group).candidate("first")
                        .lease(Duration.ofSeconds(10)).retry(Duration.ofSeconds(1)).build(quiet(null));
                leader.start();
                while (!leader.isLeader()) {
                    Thread.sleep(1);
                }
                try (LeaderElection follower = LeaderElection.forGroup(second, group).candidate("second")
                        .lease(Duration.ofSeconds(10)).retry(Duration.ofSeconds(1)).build(quiet(grantedAt))) {
                    follower.start();
                    Thread.sleep(WAITING_FOR.toMillis());
                    long steppedDownAt = timings.start();
                    leader.close();
                    long closeReturnedAt = System.nanoTime();
                    timings.end(i, steppedDownAt, closeReturnedAt, grantedAt.get(30, TimeUnit.SECONDS));
                }
            }
        }
        return timings;
    }

    private static Candidate quiet(CompletableFuture<Long> grantedAt) {
        return new Candidate() {
            @Override
            public void onGranted(FencingToken epoch) {
                if (grantedAt != null) {
                    grantedAt.complete(System.nanoTime());
                }
            }

            @Override
            public void onRevoked(FencingToken epoch) {
            }
        };
    }
}
