package io.seatlock.lock.redis;

import io.lettuce.core.RedisURI;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.RedisServer;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;

/** Clients on the {@link TransportUnderTest}: Lettuce's own factories, or the registered transport's. */
public final class TestTransports {

    /** The transport module running these suites registers its own (a {@link java.util.ServiceLoader} entry). */
    private static final TransportUnderTest TRANSPORT = ServiceLoader.load(TransportUnderTest.class).findFirst()
            .orElseThrow(() -> new IllegalStateException("no TransportUnderTest registered: the suites of seatlock-redis "
                    + "run in a transport module (seatlock-redis-lettuce, seatlock-redis-jedis)"));

    private TestTransports() {
    }

    /**
     * The bounds of a test's client: it connects within its command timeout too, so a fault test's first call on a
     * Redis that does not answer ends within twice that, not the production default's ten seconds more.
     */
    public static RedisTimeouts timeouts(Duration commandTimeout) {
        return new RedisTimeouts(commandTimeout, commandTimeout);
    }

    /** A client of one Redis server, on the transport under test. */
    public static RedisLockClient standalone(RedisURI uri, Duration commandTimeout, RedisLockSettings settings,
                                             LockListener listener) {
        return standalone(uri, timeouts(commandTimeout), settings, listener);
    }

    /** A client of one Redis server, on the transport under test, with both bounds given. */
    public static RedisLockClient standalone(RedisURI uri, RedisTimeouts timeouts, RedisLockSettings settings,
                                             LockListener listener) {
        return RedisLockClient.over(TRANSPORT.standalone(uri, timeouts), settings, listener);
    }

    /** A client of a Redis Cluster, on the transport under test. */
    public static RedisLockClient cluster(List<RedisURI> seeds, Duration commandTimeout, RedisLockSettings settings,
                                          LockListener listener) {
        return RedisLockClient.over(TRANSPORT.cluster(seeds, timeouts(commandTimeout)), settings, listener);
    }

    /**
     * {@code client}, once it has been granted a lock. Its first call connects and loads the script, which a busy
     * machine can make outlast the short timeouts fault tests give (seen with two builds and embedded servers beside
     * them), failing a test before its fault: asked until it is granted, for at most 30 s. Each attempt asks for a name
     * of its own: one that timed out after Redis granted it leaves its name held until the client has taken the grant
     * back, and asking for that name again would be refused by the client's own lost grant.
     */
    public static RedisLockClient warmedUp(RedisLockClient client) {
        AtomicInteger attempts = new AtomicInteger();
        await("a first grant").atMost(Duration.ofSeconds(30)).ignoreExceptionsInstanceOf(LockUnavailableException.class)
                .until(() -> client.tryAcquire("warm-up:" + attempts.incrementAndGet(), Duration.ofSeconds(30),
                        OverlapImpact.WASTED_WORK).map(lease -> {
                            lease.release();
                            return true;
                        }).orElse(false));
        return client;
    }

    /**
     * Whether a grant of {@code name} made now is written on {@code node}: false while the client reaches no master, or
     * one that refuses writes (a master turned into a replica).
     */
    public static boolean grantLandsOn(RedisLockClient client, String name, RedisServer node) {
        Optional<LockLease> lease;
        try {
            lease = client.tryAcquire(name, Duration.ofSeconds(10), OverlapImpact.WASTED_WORK);
        } catch (LockUnavailableException e) {
            return false;
        }
        try (LockLease held = lease.orElseThrow()) {
            String key = new RedisKeys(client.settings().keyPrefix()).lock(name);
            return held.ownerToken().equals(node.with(r -> r.get(key)));
        }
    }
}
