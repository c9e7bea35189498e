package io.seatlock.bench;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.leader.Candidate;
import io.seatlock.lock.leader.LeaderElection;
import io.seatlock.lock.redis.LettuceTransport;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.LocalServers;
import io.seatlock.localservers.RedisServer;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Release to next holder, measured from the holder's release call to the moment the waiter holds the lock:
 * seatlock's waiting {@code acquire} and Redisson's {@code RLock.lock()} (both woken by a published release),
 * and a seatlock leader hand-over when the leader closes its election. Each waiter is given 50 ms to be
 * waiting before the release, as a waiter that arrived earlier would be.
 */
final class HandOver {

    private static final Duration WAITING_FOR = Duration.ofMillis(50);

    private HandOver() {
    }

    static String run(int rounds, int leaderRounds) throws Exception {
        RedisServer redis = LocalServers.redis();
        StringBuilder md = new StringBuilder("| waiter | rounds | p50 ms | p99 ms | max ms | slowest round (first is 1) |\n"
                + "|---|---|---|---|---|---|\n");
        md.append(row("seatlock `acquire(name, ttl, impact, maxWait)`", seatlockWaiter(redis, rounds)));
        md.append(row("Redisson `RLock.lock()`", redissonWaiter(redis, rounds)));
        md.append(row("seatlock leader, leader closes its election", leaderHandOver(redis, leaderRounds)));
        redis.deleteKeys("bench-ho:");
        redis.deleteKeys("bench-ho-r:");
        return md.toString();
    }

    /** Percentiles, and which round was the slowest: a first round that pays for the subscription shows as 1. */
    private static String row(String what, double[] millis) {
        int slowest = 0;
        for (int i = 1; i < millis.length; i++) {
            slowest = millis[i] > millis[slowest] ? i : slowest;
        }
        double[] sorted = millis.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.2f | %d |%n", what, sorted.length,
                sorted[sorted.length / 2], sorted[(int) Math.ceil(sorted.length * 0.99) - 1], sorted[sorted.length - 1],
                slowest + 1);
    }

    private static RedisLockClient client(RedisServer redis, String name) {
        return RedisLockClient.over(
                LettuceTransport.standalone(RedisURI.create(redis.host(), redis.port()), Duration.ofSeconds(2)),
                RedisLockSettings.defaults().withKeyPrefix("bench-ho:").withInstanceId(name), LockListener.NOOP);
    }

    private static double[] seatlockWaiter(RedisServer redis, int rounds) throws Exception {
        double[] millis = new double[rounds];
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
                long releasedAt = System.nanoTime();
                held.release();
                millis[i] = (acquiredAt.get(30, TimeUnit.SECONDS) - releasedAt) / 1e6;
            }
        } finally {
            waiterThread.shutdownNow();
        }
        return millis;
    }

    private static double[] redissonWaiter(RedisServer redis, int rounds) throws Exception {
        double[] millis = new double[rounds];
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
                Future<Long> releasedAt = threads.submit(() -> {
                    RLock lock = holderClient.getLock(name);
                    lock.lock(10, TimeUnit.SECONDS);
                    locked.countDown();
                    release.await();
                    long at = System.nanoTime();
                    lock.unlock();
                    return at;
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
                release.countDown();
                millis[i] = (acquiredAt.get(30, TimeUnit.SECONDS) - releasedAt.get(30, TimeUnit.SECONDS)) / 1e6;
            }
        } finally {
            threads.shutdownNow();
            holderClient.shutdown();
            waiterClient.shutdown();
        }
        return millis;
    }

    private static double[] leaderHandOver(RedisServer redis, int rounds) throws Exception {
        double[] millis = new double[rounds];
        try (RedisLockClient first = client(redis, "first"); RedisLockClient second = client(redis, "second")) {
            for (int i = 0; i < rounds; i++) {
                String group = "handover-" + i;
                CompletableFuture<Long> grantedAt = new CompletableFuture<>();
                LeaderElection leader = new LeaderElection(first, group, "first", Duration.ofSeconds(10), Duration.ofSeconds(1),
                        quiet(null));
                leader.start();
                while (!leader.isLeader()) {
                    Thread.sleep(1);
                }
                try (LeaderElection follower = new LeaderElection(second, group, "second", Duration.ofSeconds(10),
                        Duration.ofSeconds(1), quiet(grantedAt))) {
                    follower.start();
                    Thread.sleep(WAITING_FOR.toMillis());
                    long steppedDownAt = System.nanoTime();
                    leader.close();
                    millis[i] = (grantedAt.get(30, TimeUnit.SECONDS) - steppedDownAt) / 1e6;
                }
            }
        }
        return millis;
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
