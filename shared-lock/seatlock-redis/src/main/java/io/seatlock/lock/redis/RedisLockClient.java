package io.seatlock.lock.redis;

import io.seatlock.lock.spi.LockListeners;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LeaseTooShortException;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockNotAcquiredException;
import io.seatlock.lock.spi.LockSpec;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The Redis lock: {@code SET NX PX} plus a fencing counter in one script, compare-and-delete release,
 * compare-and-{@code PEXPIRE} renewal. Thread-safe; share one per application.
 *
 * <p>Every call waits at most the command timeout (plus a few milliseconds) whatever the concurrency,
 * connecting included. Renewals are sent asynchronously by a watchdog that never blocks, so one lease
 * waiting on a silent Redis delays no other; lost-lease callbacks run on their own threads, never while
 * a lock of this library is held.
 */
public final class RedisLockClient implements DistributedLock, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisLockClient.class);
    /** How long a fence counter outlives its last lease; tokens stay increasing after it goes (time-seeded). */
    private static final Duration FENCE_KEPT_AFTER_LEASE = Duration.ofHours(1);
    /** Our own wait ends this long after Lettuce's command timeout would have ended it. */
    private static final long AWAIT_SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** ACQUIRE_UNLESS_DECIDED's answer when the decided marker is there. */
    private static final long DECIDED = -1;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final RedisConnector redis;
    private final RedisLockSettings settings;
    private final LockListener listener;
    private final Duration commandTimeout;
    private final ScheduledThreadPoolExecutor watchdogs;
    private final ExecutorService callbacks;
    private final Set<RedisLease> held = ConcurrentHashMap.newKeySet();
    private final String ownerSuffix;
    private final RedisKeys keys;
    private volatile TtlArgs lastTtl;

    private RedisLockClient(RedisConnector redis, Duration commandTimeout, RedisLockSettings settings,
                            LockListener listener) {
        this.redis = redis;
        this.commandTimeout = commandTimeout;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.listener = LockListeners.guarded(List.of(Objects.requireNonNull(listener, "listener")));
        this.ownerSuffix = "@" + settings.instanceId();
        this.keys = settings.keys();
        // Neither pool starts a thread before its first task.
        this.watchdogs = new ScheduledThreadPoolExecutor(1, daemon("seatlock-watchdog"));
        this.watchdogs.setRemoveOnCancelPolicy(true);
        this.callbacks = Executors.newCachedThreadPool(daemon("seatlock-callback"));
    }

    /**
     * A lock on one Redis server (or a Sentinel-managed one, via a {@code redis-sentinel://} URI).
     * Commands fail with {@link LockUnavailableException} after {@code commandTimeout}, and at once while
     * disconnected, never hanging. TLS follows the URI ({@code rediss://}) with the JVM's default trust.
     *
     * @param uri            the server (redis://, rediss://, redis-sentinel://)
     * @param commandTimeout longest wait for Redis, connecting included
     * @param settings       key prefix, instance id, safety margin, back-off
     * @param listener       told what the lock does; whatever it throws is logged and ignored
     * @return a client that connects on first use
     */
    public static RedisLockClient standalone(RedisURI uri, Duration commandTimeout, RedisLockSettings settings,
                                             LockListener listener) {
        return standalone(uri, commandTimeout, null, settings, listener);
    }

    /**
     * As above, with the TLS trust and key material to use when the URI asks for TLS.
     *
     * @param ssl            TLS material; null for the JVM's defaults
     * @param uri            the server (redis://, rediss://, redis-sentinel://)
     * @param commandTimeout longest wait for Redis, connecting included
     * @param settings       key prefix, instance id, safety margin, back-off
     * @param listener       told what the lock does; whatever it throws is logged and ignored
     * @return a client that connects on first use
     */
    public static RedisLockClient standalone(RedisURI uri, Duration commandTimeout, @Nullable SslOptions ssl,
                                             RedisLockSettings settings, LockListener listener) {
        uri.setTimeout(commandTimeout);
        RedisClient client = RedisClient.create(uri);
        client.setOptions(failFast(ClientOptions.builder(), commandTimeout, ssl).build());
        return new RedisLockClient(RedisConnector.standalone(client, uri), commandTimeout, settings, listener);
    }

    /**
     * A lock on a Redis Cluster; lock and fence keys share a hash slot, so the scripts are legal.
     *
     * @param seeds          some of the cluster's nodes
     * @param commandTimeout longest wait for Redis, connecting included
     * @param settings       key prefix, instance id, safety margin, back-off
     * @param listener       told what the lock does; whatever it throws is logged and ignored
     * @return a client that connects on first use
     */
    public static RedisLockClient cluster(List<RedisURI> seeds, Duration commandTimeout, RedisLockSettings settings,
                                          LockListener listener) {
        return cluster(seeds, commandTimeout, null, settings, listener);
    }

    /**
     * As above, with TLS material for seeds that ask for TLS.
     *
     * @param ssl            TLS material; null for the JVM's defaults
     * @param seeds          some of the cluster's nodes
     * @param commandTimeout longest wait for Redis, connecting included
     * @param settings       key prefix, instance id, safety margin, back-off
     * @param listener       told what the lock does; whatever it throws is logged and ignored
     * @return a client that connects on first use
     */
    public static RedisLockClient cluster(List<RedisURI> seeds, Duration commandTimeout, @Nullable SslOptions ssl,
                                          RedisLockSettings settings, LockListener listener) {
        seeds.forEach(uri -> uri.setTimeout(commandTimeout));
        RedisClusterClient client = RedisClusterClient.create(seeds);
        client.setOptions(failFast(ClusterClientOptions.builder(), commandTimeout, ssl).build());
        return new RedisLockClient(RedisConnector.cluster(client), commandTimeout, settings, listener);
    }

    /** Commands fail at once while disconnected and after {@code timeout} otherwise: a typed error, never a hang. */
    private static <B extends ClientOptions.Builder> B failFast(B builder, Duration timeout, @Nullable SslOptions ssl) {
        builder.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
                .timeoutOptions(TimeoutOptions.enabled(timeout));
        if (ssl != null) {
            builder.sslOptions(ssl);
        }
        return builder;
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
        LockSpec spec = spec(name, ttl, impact);
        try {
            return attempt(spec, false, false).lease();
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible attempt was interrupted", e);
        }
    }

    @Override
    public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException {
        LockSpec spec = spec(name, ttl, impact);
        if (maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait must not be negative, was " + maxWait);
        }
        long deadline = System.nanoTime() + maxWait.toNanos();
        long backoff = settings.minBackoff().toNanos();
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for lock '" + name + "'");
            }
            Optional<LockLease> lease = attempt(spec, true, false).lease();
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

    /**
     * One acquire round trip. An answer that arrives after the lease's own local deadline counts as not
     * acquired (the grant is taken back); a caller that stops waiting (interrupt, timeout) has the grant
     * taken back too, should it land later.
     */
    private AcquireAttempt attempt(LockSpec spec, boolean interruptible, boolean unlessDecided)
            throws InterruptedException {
        String group = LockListeners.groupOf(spec.name());
        listener.onAttempt(group);
        String owner = ownerToken();
        String[] keys = unlessDecided ? new String[] {lockKey(spec.name()), fenceKey(spec.name()), decidedKey(spec.name())}
                : new String[] {lockKey(spec.name()), fenceKey(spec.name())};
        LockScripts script = unlessDecided ? LockScripts.ACQUIRE_UNLESS_DECIDED : LockScripts.ACQUIRE;
        TtlArgs ttl = ttlArgs(spec.ttl().toMillis());
        String[] args = {owner, ttl.lease(), ttl.fence()};
        // The lease's clock starts when the script is handed to the connection, after any connect: still
        // before Redis runs it, so the local deadline stays on the safe side.
        long[] sentAt = new long[1];
        CompletableFuture<Long> answer;
        RedisClusterAsyncCommands<String, String> connected = redis.connectedOrNull();
        if (connected != null) {
            sentAt[0] = System.nanoTime();
            answer = send(connected, r -> script.run(r, keys, args));
        } else {
            answer = send(r -> {
                sentAt[0] = System.nanoTime();
                return script.run(r, keys, args);
            });
        }
        long token;
        try {
            token = await(group, answer, interruptible);
        } catch (InterruptedException | LockUnavailableException e) {
            answer.whenComplete((granted, error) -> takeBack(keys[0], owner));
            throw e;
        }
        if (token == DECIDED) {
            listener.onDecided(group);
            return AcquireAttempt.alreadyDecided();
        }
        if (token <= 0) {
            listener.onBusy(group);
            return AcquireAttempt.busy(token == 0 ? null : Duration.ofMillis(-token - 2));
        }
        RedisLease lease = new RedisLease(this, spec, group, keys[0], owner, new FencingToken(token), sentAt[0]);
        if (!lease.isValid()) {
            // Redis answered after the lease's own validity: someone else may already hold it. Not ours.
            listener.onLateGrant(group);
            takeBack(keys[0], owner);
            return AcquireAttempt.busy(null);
        }
        held.add(lease);
        listener.onAcquired(group, spec.impact());
        return AcquireAttempt.acquired(lease);
    }

    @Override
    public AcquireAttempt tryAcquireUnlessDecided(String name, Duration ttl, OverlapImpact impact) {
        LockSpec spec = spec(name, ttl, impact);
        try {
            return attempt(spec, false, true);
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible attempt was interrupted", e);
        }
    }

    /** Redis takes whole milliseconds; the local deadline is reckoned from the same truncated ttl. */
    private LockSpec spec(String name, Duration ttl, OverlapImpact impact) {
        LockSpec spec = new LockSpec(name, ttl, impact);
        Duration whole = Duration.ofMillis(ttl.toMillis());
        requireUsableTtl(whole);
        return whole.equals(ttl) ? spec : new LockSpec(name, whole, impact);
    }

    void requireUsableTtl(Duration ttl) {
        long margin = settings.safetyMarginNanos(ttl);
        if (ttl.toNanos() <= margin) {
            throw new LeaseTooShortException(ttl, Duration.ofNanos(margin));
        }
    }

    @Override
    public Optional<Duration> remainingTtl(String name) {
        LockSpec.requireValidName(name);
        long pttl = call(LockListeners.groupOf(name), r -> r.pttl(lockKey(name)).toCompletableFuture());
        if (pttl == -2) {
            return Optional.empty();
        }
        return Optional.of(pttl == -1 ? ChronoUnit.FOREVER.getDuration() : Duration.ofMillis(pttl));
    }

    @Override
    public Optional<String> holder(String name) {
        LockSpec.requireValidName(name);
        String owner = call(LockListeners.groupOf(name), r -> r.get(lockKey(name)).toCompletableFuture());
        if (owner == null) {
            return Optional.empty();
        }
        int at = owner.indexOf('@');
        return Optional.of(at >= 0 ? owner.substring(at + 1) : owner);
    }

    @Override
    public Set<String> heldNames(String namePrefix) {
        if (namePrefix == null || namePrefix.indexOf('{') >= 0 || namePrefix.indexOf('}') >= 0
                || namePrefix.indexOf('*') >= 0 || namePrefix.indexOf('?') >= 0 || namePrefix.indexOf('[') >= 0) {
            throw new IllegalArgumentException("name prefix must not be null or contain braces or glob characters");
        }
        String pattern = keys.lockPattern(namePrefix);
        String group = LockListeners.groupOf(namePrefix);
        Set<String> names = new HashSet<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            ScanCursor from = cursor;
            KeyScanCursor<String> page = call(group,
                    r -> r.scan(from, ScanArgs.Builder.matches(pattern).limit(1000)).toCompletableFuture());
            page.getKeys().forEach(k -> names.add(keys.nameOfLock(k)));
            cursor = page;
        } while (!cursor.isFinished());
        return names;
    }

    @Override
    public Set<String> held(Collection<String> names) {
        List<String> asked = List.copyOf(names);
        asked.forEach(LockSpec::requireValidName);
        if (asked.isEmpty()) {
            return Set.of();
        }
        List<CompletableFuture<Long>> answers = asked.stream()
                .map(name -> send(r -> r.exists(lockKey(name)).toCompletableFuture())).toList();
        call(LockListeners.groupOf(asked.get(0)), r -> CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)));
        Set<String> held = new HashSet<>();
        for (int i = 0; i < asked.size(); i++) {
            if (answers.get(i).join() == 1) {
                held.add(asked.get(i));
            }
        }
        return held;
    }

    /**
     * One round trip to Redis, for health checks.
     *
     * @return how long it took
     * @throws LockUnavailableException if Redis did not answer within the command timeout
     */
    public Duration ping() {
        long start = System.nanoTime();
        call("health", r -> r.ping().toCompletableFuture());
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * Leases this instance holds right now, for status pages such as {@code /actuator/locks}.
     *
     * @return the held leases (released and lost ones are gone)
     */
    public List<LockLease> heldLeases() {
        return List.copyOf(held);
    }

    /**
     * How this client was set up.
     *
     * @return its settings
     */
    public RedisLockSettings settings() {
        return settings;
    }

    /** Stops renewing, releases what this instance holds (waiting at most one command timeout in all) and disconnects. */
    @Override
    public void close() {
        watchdogs.shutdownNow();
        List<CompletableFuture<?>> releases = held.stream().<CompletableFuture<?>>map(RedisLease::releaseAsync).toList();
        try {
            CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new))
                    .get(commandTimeout.toNanos() + AWAIT_SLACK_NANOS, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("could not release every lock on close; they expire on their own: {}", e.getMessage());
        }
        callbacks.shutdown();
        redis.close();
    }

    String lockKey(String name) {
        return keys.lock(name);
    }

    private String fenceKey(String name) {
        return keys.fence(name);
    }

    /** The decided marker of a lock ({@link LockLease#releaseDecided}); same hash slot as the lock. */
    String decidedKey(String name) {
        return keys.decided(name);
    }

    CompletableFuture<Boolean> extend(String lockKey, String owner, Duration ttl) {
        return send(r -> LockScripts.EXTEND.run(r, new String[] {lockKey}, owner, Long.toString(ttl.toMillis())))
                .thenApply(extended -> extended == 1);
    }

    /** Sets the decided marker, then compare-and-deletes; completes with 1 if the lock was ours and is gone. */
    CompletableFuture<Long> deleteDecided(String lockKey, String decidedKey, String owner, Duration keepMarkerFor) {
        return send(r -> LockScripts.RELEASE_DECIDED.run(r, new String[] {lockKey, decidedKey}, owner,
                Long.toString(keepMarkerFor.toMillis())));
    }

    /** Compare-and-delete; completes with 1 if the key was this owner's and is gone, else 0. */
    CompletableFuture<Long> delete(String lockKey, String owner) {
        return send(r -> LockScripts.RELEASE.run(r, new String[] {lockKey}, owner));
    }

    /** Best effort, never waits and never opens a connection: a grant nobody waits for is deleted by owner. */
    private void takeBack(String lockKey, String owner) {
        RedisClusterAsyncCommands<String, String> commands = redis.connectedOrNull();
        if (commands == null) {
            return;
        }
        LockScripts.RELEASE.run(commands, new String[] {lockKey}, owner).whenComplete((deleted, error) -> {
            if (error != null) {
                log.debug("could not take back a grant of {}; it expires on its own", lockKey, error);
            }
        });
    }

    /** The acquire script's ttl arguments as text; an application uses few ttls, so the last one is kept. */
    private record TtlArgs(long millis, String lease, String fence) {
    }

    private TtlArgs ttlArgs(long millis) {
        TtlArgs last = lastTtl;
        if (last == null || last.millis() != millis) {
            last = new TtlArgs(millis, Long.toString(millis), Long.toString(millis + FENCE_KEPT_AFTER_LEASE.toMillis()));
            lastTtl = last;
        }
        return last;
    }

    /**
     * A random owner token in UUID form, then {@code @instance-id}, built in one buffer. Unique, not secret:
     * anyone who can read Redis can read the token anyway; SecureRandom would contend.
     */
    private String ownerToken() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] token = new char[36 + ownerSuffix.length()];
        long high = random.nextLong();
        long low = random.nextLong();
        hex(high >>> 32, token, 0, 8);
        token[8] = '-';
        hex(high >>> 16, token, 9, 4);
        token[13] = '-';
        hex(high, token, 14, 4);
        token[18] = '-';
        hex(low >>> 48, token, 19, 4);
        token[23] = '-';
        hex(low, token, 24, 12);
        ownerSuffix.getChars(0, ownerSuffix.length(), token, 36);
        return new String(token);
    }

    private static void hex(long value, char[] into, int at, int digits) {
        for (int i = digits - 1; i >= 0; i--) {
            into[at + i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
    }

    void forget(RedisLease lease) {
        held.remove(lease);
    }

    LockListener listener() {
        return listener;
    }

    Duration commandTimeout() {
        return commandTimeout;
    }

    ScheduledExecutorService watchdogs() {
        return watchdogs;
    }

    /** Runs a user callback on its own thread: never on the watchdog, a Redis I/O thread or under a lock. */
    void runCallback(Runnable callback, String name) {
        try {
            callbacks.execute(() -> {
                try {
                    callback.run();
                } catch (RuntimeException e) {
                    log.warn("lost-lease callback of '{}' failed", name, e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            log.debug("client closed; lost-lease callback of '{}' not run", name);
        }
    }

    /** Sends without waiting; a connect under way is shared with every other caller. */
    private <T> CompletableFuture<T> send(Function<RedisClusterAsyncCommands<String, String>, CompletableFuture<T>> command) {
        return send(redis.connectedOrNull(), command);
    }

    /** Sends on {@code connected}, or once the shared connect attempt has made a connection (if null). */
    private <T> CompletableFuture<T> send(RedisClusterAsyncCommands<String, String> connected,
                                          Function<RedisClusterAsyncCommands<String, String>, CompletableFuture<T>> command) {
        try {
            return connected != null ? command.apply(connected) : redis.commands().thenCompose(command);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private <T> T call(String group, Function<RedisClusterAsyncCommands<String, String>, CompletableFuture<T>> command) {
        try {
            return await(group, send(command), false);
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible wait was interrupted", e);
        }
    }

    /**
     * Waits for an answer at most the command timeout (plus slack). Uninterruptible waits keep the
     * interrupt for the caller; they are bounded anyway.
     */
    <T> T await(String group, CompletableFuture<T> answer, boolean interruptible) throws InterruptedException {
        return await(group, answer, interruptible, callDeadline());
    }

    /** When a call started now must have its answer: the command timeout plus a little slack. */
    long callDeadline() {
        return System.nanoTime() + commandTimeout.toNanos() + AWAIT_SLACK_NANOS;
    }

    /** As {@link #await(String, CompletableFuture, boolean)}, up to a deadline shared with earlier waits of one call. */
    <T> T await(String group, CompletableFuture<T> answer, boolean interruptible, long deadline)
            throws InterruptedException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    if (interruptible) {
                        throw e;
                    }
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw unavailable(group, e.getCause());
                } catch (TimeoutException e) {
                    throw unavailable(group, new RedisCommandTimeoutException("no answer within " + commandTimeout));
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    LockUnavailableException unavailable(String group, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        listener.onUnavailable(group);
        log.debug("Redis unavailable for lock group '{}'", group, cause);
        return new LockUnavailableException("Redis unavailable for lock group '" + group + "': " + cause.getMessage(),
                cause);
    }
}
