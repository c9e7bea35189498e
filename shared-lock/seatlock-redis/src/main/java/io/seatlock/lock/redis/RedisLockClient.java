package io.seatlock.lock.redis;

import io.seatlock.lock.spi.HeldLeases;
import io.seatlock.lock.spi.SafetyMargin;
import io.seatlock.lock.spi.BlockingAcquire;
import io.seatlock.lock.spi.LockListeners;
import io.seatlock.lock.redis.spi.RedisCommand;
import io.seatlock.lock.redis.spi.RedisTransport;
import org.jspecify.annotations.Nullable;
import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockClosedException;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.spi.LockSpec;
import io.seatlock.lock.internal.ReleaseHints;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The Redis lock: {@code SET NX PX} plus a fencing counter in one script, compare-and-delete release,
 * compare-and-{@code PEXPIRE} renewal. Thread-safe; share one per application.
 *
 * <p>How the API's terms map onto Redis ({@link RedisKeys} holds the key layout): a lease is the key
 * {@code <prefix>lock:{<name>}} holding the owner token, its ttl the key's {@code PX}, so
 * {@link #remainingTtl} is its {@code PTTL}; the fencing token is
 * {@code max(last token + 1, the Redis server's time in microseconds)}, kept in {@code <prefix>fence:{<name>}}, so a
 * restart or failover that forgets the last token still hands out a larger one, unless the new server's clock is
 * behind the last grant's; {@link #heldNames} is a {@code SCAN} of the whole keyspace (its cost grows with
 * everything in Redis), {@link #held} one {@code MGET} of the names' keys (on a Cluster one {@code EXISTS} per name,
 * sent to each master together); {@link #whenReleased} hears the release on the channel
 * {@code <prefix>released:{<name>}}, on a callback thread of the client's own, never one that talks to Redis, so
 * what is chained on it may call the lock.
 *
 * <p>The call bound is the command timeout (plus a few milliseconds) whatever the concurrency, a reconnect
 * included, on seatlock-redis-lettuce's transport; before the lock first reached Redis, the connect timeout on top
 * ({@link RedisTimeouts}); another transport states its own bound. No Lettuce type
 * appears here, so the class loads where Lettuce is absent. Renewals are sent by a watchdog that never blocks,
 * so one lease waiting on a silent Redis delays no other; lost-lease callbacks run on their own threads, never while
 * a lock of this library is held.
 */
public final class RedisLockClient implements DistributedLock, AutoCloseable {

    /** How long a fence counter outlives its last lease; tokens stay increasing after it goes (time-seeded). */
    private static final Duration FENCE_KEPT_AFTER_LEASE = Duration.ofHours(1);

    /** ACQUIRE_UNLESS_DECIDED's answer when the decided marker is there. */
    private static final long DECIDED = -1;

    private final RedisLockSettings settings;
    private final SafetyMargin margin;
    /** Its waiting threads stand in line per name: a release wakes one attempt of this lock, not all. */
    private final BlockingAcquire blocking;
    private final LockListener listener;
    private final RedisCalls calls;
    private final RedisKeys keys;
    private final OwnerTokens ownerTokens;
    private final HeldLeases<RedisLease> held = new HeldLeases<>("this lock client");
    private final LeaseContext leases;
    private final RedisLockStatus status;
    private final AcquireArgs acquireArgs = new AcquireArgs(FENCE_KEPT_AFTER_LEASE);
    private final GrantedTokens grantedTokens = new GrantedTokens();
    private final ReleaseSignals releaseSignals;
    /** {@link #lineLife()} as the in-order script takes it, in ms: worked out once, since the settings are fixed. */
    private final String lineLifeMillis;

    private RedisLockClient(RedisTransport transport, RedisLockSettings settings, LockListener listener) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.margin = settings.timing().safetyMargin();
        this.blocking = new BlockingAcquire(settings.timing());
        this.listener = LockListeners.guarded(List.of(Objects.requireNonNull(listener, "listener")));
        this.calls = new RedisCalls(transport, this.listener);
        this.keys = settings.keys();
        this.ownerTokens = new OwnerTokens(settings.instanceId());
        this.leases = new LeaseContext(calls, new LeaseCommands(calls, settings),
                held.services("Redis", calls, margin, this.listener));
        this.status = new RedisLockStatus(calls, keys);
        this.releaseSignals = new ReleaseSignals(transport, keys);
        this.lineLifeMillis = Long.toString(lineLife().toMillis());
    }

    /**
     * The lock over a transport: {@code seatlock-redis-lettuce}'s {@code LettuceTransport} or
     * {@code seatlock-redis-jedis}'s {@code JedisTransport}, e.g.
     * {@code RedisLockClient.over(LettuceTransport.of(RedisEndpoints.of(url), RedisTimeouts.of(timeout)), settings,
     * listener)}.
     *
     * @param transport how commands reach Redis; closed with the client
     * @param settings  key prefix, instance id, safety margin, back-off, replicas
     * @param listener  told what the lock does; whatever it throws is logged and ignored
     * @return a client that connects on first use
     * @throws IllegalArgumentException if the settings ask replicas to acknowledge grants on a Redis Cluster
     */
    public static RedisLockClient over(RedisTransport transport, RedisLockSettings settings, LockListener listener) {
        Objects.requireNonNull(transport, "transport");
        if (settings.replicas() > 0 && transport.cluster()) {
            transport.close();
            throw new IllegalArgumentException("replicas acknowledging grants (WAIT) need one connection to the lock's "
                    + "master; not supported on Redis Cluster");
        }
        return new RedisLockClient(transport, settings, listener);
    }

    @Override
    public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
        LockSpec spec = spec(name, ttl, impact);
        return uninterruptibly(spec, false).lease();
    }

    @Override
    public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException {
        LockSpec spec = spec(name, ttl, impact);
        return blocking.acquire(name, maxWait, () -> attempt(spec, true, false).lease(),
                atMost -> awaitRelease(name, atMost));
    }

    /**
     * As the interface says, with the line in Redis ({@link RedisKeys#line}), in order of arrival by Redis' clock. Each
     * attempt of a waiter keeps its place (one script call: it drops the waiters no longer alive, and grants only to
     * the first in line when the lock is free); a waiter is taken to be alive for {@link #lineLife()} after each
     * attempt, so one whose process died holds up the line at most that long. A waiter that gives up leaves the line
     * (one call; if it goes unanswered, the waiter is dropped when its life ends). After a release the first in line
     * may take up to its back-off to come back, if the release woke another waiter of its client.
     */
    @Override
    public LockLease acquireInOrder(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException {
        LockSpec spec = spec(name, ttl, impact);
        String waiter = ownerTokens.next();
        boolean granted = false;
        try {
            LockLease lease = blocking.acquireWithoutLine(name, maxWait, () -> attempt(spec, true, false, waiter).lease(),
                    atMost -> awaitRelease(name, atMost));
            granted = true;
            return lease;
        } finally {
            if (!granted) {
                calls.send(LockScripts.LEAVE_LINE.command(List.of(keys.line(name), keys.lineAlive(name)),
                        List.of(waiter))).exceptionally(error -> 0L); // unanswered: its life ends instead
            }
        }
    }

    /**
     * How long a waiter in line is taken to be alive after its last attempt: ten of its longest pauses, at least 2 s,
     * and one command timeout for that attempt's answer.
     */
    Duration lineLife() {
        Duration pauses = settings.timing().maxBackoff().multipliedBy(10);
        return (pauses.compareTo(Duration.ofSeconds(2)) < 0 ? Duration.ofSeconds(2) : pauses).plus(calls.callTimeout());
    }

    /**
     * Completes soon after the holder of {@code name} releases it, told by the release itself: this marks the
     * lock as waited for (one script call), and a marked lock's release publishes on its channel, which this
     * client subscribes to on first use. Completes at once if the lock turns out to be free. Never completes if
     * the holder's lease just expires or a message is lost, so wait with a bound of your own; cancel it when you
     * stop waiting. Completes on a callback thread of this client's ({@code seatlock-callback}), so what you chain on
     * it may block, or call this lock.
     */
    @Override
    public CompletableFuture<Void> whenReleased(String name) {
        return held.relay(released(name));
    }

    /**
     * As the interface says, waiting on the hint where the transport completes it: a waiting thread is woken from
     * there, and nothing else runs on it, so a hand-over costs no hop through a callback thread.
     */
    @Override
    public void awaitRelease(String name, Duration atMost) throws InterruptedException {
        ReleaseHints.await(() -> released(name), atMost);
    }

    /** {@link #whenReleased}, completed on the transport's thread that hears the release. */
    private CompletableFuture<Void> released(String name) {
        held.requireOpen();
        LockSpec.requireValidName(name);
        CompletableFuture<Void> released = releaseSignals.next(name);
        releaseSignals.subscribed().thenAccept(subscribed -> {
            if (subscribed) {
                calls.send(LockScripts.MARK_WAITED.command(List.of(keys.lock(name)), List.of())).whenComplete((held, error) -> {
                    if (error == null && held == 0) {
                        releaseSignals.released(name);
                    }
                });
            }
        });
        return released;
    }

    /**
     * One acquire round trip. An answer that arrives after the lease's own local deadline counts as not
     * acquired (the grant is taken back); a caller that stops waiting (interrupt, timeout) has the grant
     * taken back too, should it land later.
     */
    private AcquireAttempt attempt(LockSpec spec, boolean interruptible, boolean unlessDecided)
            throws InterruptedException {
        return attempt(spec, interruptible, unlessDecided, null);
    }

    /** As above; with a {@code waiter}, as that waiter in the name's line ({@link #acquireInOrder}). */
    private AcquireAttempt attempt(LockSpec spec, boolean interruptible, boolean unlessDecided, @Nullable String waiter)
            throws InterruptedException {
        return held.attempt(() -> attemptOnce(spec, interruptible, unlessDecided, waiter));
    }

    private AcquireAttempt attemptOnce(LockSpec spec, boolean interruptible, boolean unlessDecided,
                                       @Nullable String waiter) throws InterruptedException {
        long deadline = calls.callDeadline(); // from the caller's entry: connecting and sending are inside it
        String group = LockListeners.groupOf(spec.name());
        listener.onAttempt(group);
        String owner = ownerTokens.next();
        String name = spec.name();
        String lockKey = keys.lock(name);
        AcquireArgs.Ttl ttl = acquireArgs.ttl(spec.ttl().toMillis());
        String floor = grantedTokens.floor(name);
        List<String> args = List.of(owner, ttl.lease(), ttl.fence(), floor);
        List<String> scriptKeys;
        LockScripts script;
        if (waiter != null) {
            scriptKeys = List.of(lockKey, keys.fence(name), keys.line(name), keys.lineAlive(name));
            script = LockScripts.ACQUIRE_IN_ORDER;
            args = List.of(owner, ttl.lease(), ttl.fence(), floor, waiter, lineLifeMillis);
        } else if (unlessDecided) {
            scriptKeys = List.of(lockKey, keys.fence(name), keys.decided(name));
            script = LockScripts.ACQUIRE_UNLESS_DECIDED;
        } else {
            scriptKeys = List.of(lockKey, keys.fence(name));
            script = LockScripts.ACQUIRE;
        }
        AcquireArgs.SendClock sent = new AcquireArgs.SendClock();
        LeaseCommands commands = leases.commands();
        CompletableFuture<Long> answer = commands.acknowledged(script.command(scriptKeys, args), granted -> granted > 0,
                interruptible ? calls.interruptibly(deadline, sent) : calls.within(deadline, sent));
        long token;
        try {
            token = calls.await(group, answer, interruptible, deadline);
        } catch (InterruptedException | LockUnavailableException e) {
            // also a grant the replicas did not acknowledge: the master has it, a failover might not
            answer.whenComplete((granted, error) -> commands.takeBack(lockKey, owner));
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
        grantedTokens.granted(name, token);
        RedisLease lease = new RedisLease(leases, spec, group, lockKey, owner, new FencingToken(token), sent.at());
        if (!lease.isValid()) {
            // Redis answered after the lease's own validity: someone else may already hold it. Not ours.
            listener.onLateGrant(group);
            commands.takeBack(lockKey, owner);
            return AcquireAttempt.busy(null);
        }
        held.granted(lease);
        listener.onAcquired(group, spec.impact());
        return AcquireAttempt.acquired(lease);
    }

    @Override
    public AcquireAttempt tryAcquireUnlessDecided(String name, Duration ttl, OverlapImpact impact) {
        LockSpec spec = spec(name, ttl, impact);
        return uninterruptibly(spec, true);
    }

    /** One attempt that waits on through an interrupt (bounded by the command timeout) and keeps it for the caller. */
    private AcquireAttempt uninterruptibly(LockSpec spec, boolean unlessDecided) {
        try {
            return attempt(spec, false, unlessDecided);
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible attempt was interrupted", e); // cannot happen
        }
    }

    /** Redis takes whole milliseconds. */
    private LockSpec spec(String name, Duration ttl, OverlapImpact impact) {
        return margin.spec(name, ttl, impact);
    }

    @Override
    public Optional<Duration> remainingTtl(String name) {
        held.requireOpen();
        return status.remainingTtl(name);
    }

    @Override
    public Optional<String> holder(String name) {
        held.requireOpen();
        return status.holder(name);
    }

    @Override
    public Set<String> heldNames(String namePrefix) {
        held.requireOpen();
        return status.heldNames(namePrefix);
    }

    @Override
    public Set<String> held(Collection<String> names) {
        held.requireOpen();
        return status.held(names);
    }

    /**
     * One round trip to Redis, for health checks; on a Redis Cluster, to every master that serves slots at once, so that
     * a master that is gone (before the cluster promotes its replica, or without one) is reported, though the others
     * answer.
     *
     * @return how long it took
     * @throws LockUnavailableException if Redis (on a cluster: any master) did not answer within the command timeout
     * @throws IllegalStateException    if this client is closed
     */
    public Duration ping() {
        held.requireOpen();
        long start = System.nanoTime();
        calls.call("health", new RedisCommand.Ping());
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * Leases this instance holds right now, for status pages such as {@code /actuator/locks}.
     *
     * @return the held leases (released and lost ones are gone)
     */
    public List<LockLease> heldLeases() {
        return held.list();
    }

    /**
     * Which Redis client library carries this lock's commands, for status pages.
     *
     * @return {@code lettuce}, {@code jedis}, or another transport's name
     */
    public String client() {
        return calls.transport().client();
    }

    /**
     * How this client was set up.
     *
     * @return its settings
     */
    public RedisLockSettings settings() {
        return settings;
    }

    /**
     * Stops renewing, lets acquire calls under way land, releases what this instance holds (a grant that landed as it
     * closed too), waiting at most one command timeout for each of the two, and disconnects. Afterwards every call of
     * this client is a {@link LockClosedException}, at once and with nothing sent, and so is an acquire under way
     * whose grant landed as it closed; a second close does nothing.
     */
    @Override
    public void close() {
        // A call's bound once connected; not a cold call's longer one: an attempt still connecting has been granted
        // nothing, and closing the transport below ends it
        long attemptsLanded = calls.reached() ? calls.callDeadline() : System.nanoTime() + calls.callTimeout().toNanos();
        if (held.close(attemptsLanded, RedisLease::releaseAsync, calls.callDeadline() - System.nanoTime())) {
            releaseSignals.close();
            calls.close();
        }
    }

}
