package io.seatlock.bench;

import io.seatlock.lock.redis.RedisTimeouts;
import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.redis.lettuce.LettuceTransport;
import io.seatlock.lock.redis.RedisLockClient;
import io.seatlock.lock.redis.RedisLockSettings;
import io.seatlock.localservers.OwnedRedis;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What a grant acknowledged by a replica costs ({@code seatlock.lock.replication.replicas}, Redis {@code WAIT}):
 * acquire + release of an uncontended lock on a master with one replica, counted by the master alone (0) or
 * once the replica has the grant (1), side by side on the same pair of servers.
 */
@State(Scope.Benchmark)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ReplicatedGrant {

    @Param({"0", "1"})
    public int replicas;

    private OwnedRedis master;
    private OwnedRedis replica;
    private RedisLockClient lock;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        master = new OwnedRedis();
        replica = new OwnedRedis("replicaof 127.0.0.1 " + master.port());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!replica.server().with(r -> r.info("replication")).contains("master_link_status:up")) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the replica did not connect to its master");
            }
            Thread.sleep(100);
        }
        lock = RedisLockClient.over(
                LettuceTransport.standalone(RedisURI.create("redis://127.0.0.1:" + master.port()), RedisTimeouts.of(Duration.ofSeconds(2))),
                RedisLockSettings.defaults().withKeyPrefix("bench-rg:").withReplicas(replicas, Duration.ofMillis(100)),
                LockListener.NOOP);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        lock.close();
        replica.close();
        master.close();
    }

    @Benchmark
    public boolean acquireRelease(LockRoundTrip.Keys keys) {
        try (LockLease lease = lock.tryAcquire(keys.next(), Duration.ofSeconds(10), OverlapImpact.BROKEN_PROMISE).orElseThrow()) {
            return lease.fencingToken().value() > 0;
        }
    }
}
