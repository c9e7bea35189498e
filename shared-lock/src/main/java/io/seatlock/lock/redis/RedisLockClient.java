package io.seatlock.lock.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockException;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockLostException;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.LockSpec;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.LockedTask;
import io.seatlock.lock.OverlapImpact;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The Redis lock: {@code SET NX PX} plus a fencing counter in one script, compare-and-delete release,
 * compare-and-{@code PEXPIRE} renewal. Thread-safe; share one per application.
 */
public final class RedisLockClient implements DistributedLock, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisLockClient.class);
    /** How long a fence counter outlives its last lease; tokens stay increasing after it goes (time-seeded). */
    private static final Duration FENCE_KEPT_AFTER_LEASE = Duration.ofHours(1);

    private final RedisConnector redis;
    private final RedisLockSettings settings;
    private final LockListener listener;
    private final ScheduledExecutorService renewals;
    private final Set<RedisLease> held = ConcurrentHashMap.newKeySet();

    private RedisLockClient(RedisConnector redis, RedisLockSettings settings, LockListener listener) {
        this.redis = redis;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.renewals = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "seatlock-renewal");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * A lock on one Redis server (or a Sentinel-managed one, via a {@code redis-sentinel://} URI).
     * Commands fail with {@link LockUnavailableException} after {@code commandTimeout}, and at once while
     * disconnected, never hanging.
     */
    public static RedisLockClient standalone(RedisURI uri, Duration commandTimeout, RedisLockSettings settings,
                                             LockListener listener) {
        uri.setTimeout(commandTimeout);
        RedisClient client = RedisClient.create(uri);
        client.setOptions(failFast(ClientOptions.builder(), commandTimeout).build());
        return new RedisLockClient(RedisConnector.standalone(client, uri), settings, listener);
    }

    /** A lock on a Redis Cluster; lock and fence keys share a hash slot, so the scripts are legal. */
    public static RedisLockClient cluster(List<RedisURI> seeds, Duration commandTimeout, RedisLockSettings settings,
                                          LockListener listener) {
        seeds.forEach(uri -> uri.setTimeout(commandTimeout));
        RedisClusterClient client = RedisClusterClient.create(seeds);
        client.setOptions(failFast(ClusterClientOptions.builder(), commandTimeout).build());
        return new RedisLockClient(RedisConnector.cluster(client), settings, listener);
    }

    /** Commands fail at once while disconnected and after {@code timeout} otherwise: a typed error, never a hang. */
    private static <B extends ClientOptions.Builder> B failFast(B builder, Duration timeout) {
        builder.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
                .timeoutOptions(TimeoutOptions.enabled(timeout));
        return builder;
    }

    @Override
    public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
        LockSpec spec = new LockSpec(name, ttl, impact);
        String group = LockListener.groupOf(spec.name());
        listener.onAttempt(group);
        // Unique, not secret: anyone who can read Redis can read the token anyway; SecureRandom would contend.
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String owner = new UUID(random.nextLong(), random.nextLong()) + "@" + settings.instanceId();
        long startNanos = System.nanoTime();
        long token = call(group, r -> LockScripts.ACQUIRE.run(r, keysOf(spec.name()), owner,
                Long.toString(spec.ttl().toMillis()), Long.toString(spec.ttl().plus(FENCE_KEPT_AFTER_LEASE).toMillis())));
        if (token == 0) {
            listener.onBusy(group);
            return Optional.empty();
        }
        RedisLease lease = new RedisLease(this, spec, owner, new FencingToken(token), startNanos);
        if (!lease.isValid()) {
            // Redis answered after the lease's own validity: it may already belong to someone else.
            lease.close();
            listener.onUnavailable(group);
            throw new LockUnavailableException("Redis answered the acquire of '" + spec.name()
                    + "' only after its " + spec.ttl() + " lease had passed", null);
        }
        held.add(lease);
        listener.onAcquired(group, impact);
        return Optional.of(lease);
    }

    @Override
    public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException {
        if (maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait must not be negative, was " + maxWait);
        }
        long deadline = System.nanoTime() + maxWait.toNanos();
        long backoff = settings.minBackoff().toNanos();
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for lock '" + name + "'");
            }
            Optional<LockLease> lease = tryAcquire(name, ttl, impact);
            if (lease.isPresent()) {
                return lease.get();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new LockNotAcquiredException("lock '" + name + "' was still held by another owner after "
                        + maxWait);
            }
            long jittered = ThreadLocalRandom.current().nextLong(backoff / 2, backoff + 1);
            TimeUnit.NANOSECONDS.sleep(Math.min(left, jittered));
            backoff = Math.min(backoff * 2, settings.maxBackoff().toNanos());
        }
    }

    @Override
    public <T> Optional<T> executeLocked(String name, Duration ttl, OverlapImpact impact, LockedTask<T> task) {
        Objects.requireNonNull(task, "task must not be null");
        Optional<LockLease> acquired = tryAcquire(name, ttl, impact);
        if (acquired.isEmpty()) {
            return Optional.empty();
        }
        Thread worker = Thread.currentThread();
        try (LockLease lease = acquired.get()) {
            lease.keepAlive(worker::interrupt);
            T result;
            try {
                result = task.run(lease);
            } catch (Exception e) {
                if (lease.isLost()) {
                    throw lostWhileRunning(name, e);
                }
                if (e instanceof RuntimeException re) {
                    throw re;
                }
                throw new LockException("task under lock '" + name + "' failed: " + e.getMessage(), e);
            }
            if (lease.isLost()) {
                throw lostWhileRunning(name, null);
            }
            return Optional.ofNullable(result);
        }
    }

    private static LockLostException lostWhileRunning(String name, Exception cause) {
        Thread.interrupted(); // the interrupt was ours, aimed at the task; do not leak it to the caller
        LockLostException lost = new LockLostException("lock '" + name + "' was lost while its task ran");
        if (cause != null) {
            lost.addSuppressed(cause);
        }
        return lost;
    }

    @Override
    public Optional<Duration> remainingTtl(String name) {
        LockSpec.requireValidName(name);
        long pttl = call(LockListener.groupOf(name), r -> r.pttl(lockKey(name)));
        if (pttl == -2) {
            return Optional.empty();
        }
        return Optional.of(pttl == -1 ? ChronoUnit.FOREVER.getDuration() : Duration.ofMillis(pttl));
    }

    @Override
    public Set<String> heldNames(String namePrefix) {
        if (namePrefix == null || namePrefix.indexOf('{') >= 0 || namePrefix.indexOf('}') >= 0
                || namePrefix.indexOf('*') >= 0 || namePrefix.indexOf('?') >= 0 || namePrefix.indexOf('[') >= 0) {
            throw new IllegalArgumentException("name prefix must not be null or contain braces or glob characters");
        }
        String keyStart = lockKey(namePrefix);
        String pattern = keyStart.substring(0, keyStart.length() - 1) + "*";
        int nameStart = settings.keyPrefix().length() + "lock:{".length();
        return call(LockListener.groupOf(namePrefix), r -> {
            Set<String> names = new HashSet<>();
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                KeyScanCursor<String> page = r.scan(cursor, ScanArgs.Builder.matches(pattern).limit(1000));
                page.getKeys().forEach(k -> names.add(k.substring(nameStart, k.length() - 1)));
                cursor = page;
            } while (!cursor.isFinished());
            return names;
        });
    }

    /** One round trip to Redis, for health checks. */
    public Duration ping() {
        long start = System.nanoTime();
        call("health", RedisClusterCommands::ping);
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** Leases this instance holds right now (released and lost ones are gone). */
    public List<LockLease> heldLeases() {
        return List.copyOf(held);
    }

    public RedisLockSettings settings() {
        return settings;
    }

    @Override
    public void close() {
        renewals.shutdownNow();
        held.forEach(RedisLease::close);
        redis.close();
    }

    String lockKey(String name) {
        return settings.keyPrefix() + "lock:{" + name + "}";
    }

    private String[] keysOf(String name) {
        return new String[] {lockKey(name), settings.keyPrefix() + "fence:{" + name + "}"};
    }

    boolean extend(String name, String owner, Duration ttl) {
        return call(LockListener.groupOf(name),
                r -> LockScripts.EXTEND.run(r, new String[] {lockKey(name)}, owner,
                        Long.toString(ttl.toMillis()))) == 1;
    }

    boolean delete(String name, String owner) {
        return call(LockListener.groupOf(name),
                r -> LockScripts.RELEASE.run(r, new String[] {lockKey(name)}, owner)) == 1;
    }

    void forget(RedisLease lease) {
        held.remove(lease);
    }

    LockListener listener() {
        return listener;
    }

    ScheduledExecutorService renewals() {
        return renewals;
    }

    private <T> T call(String group, Function<RedisClusterCommands<String, String>, T> command) {
        try {
            return command.apply(redis.commands());
        } catch (RedisException e) {
            listener.onUnavailable(group);
            log.debug("Redis unavailable for lock group '{}'", group, e);
            throw new LockUnavailableException("Redis unavailable for lock group '" + group + "': "
                    + e.getMessage(), e);
        }
    }
}
