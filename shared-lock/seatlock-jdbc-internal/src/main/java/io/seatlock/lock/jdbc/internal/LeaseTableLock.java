package io.seatlock.lock.jdbc.internal;

import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.internal.DaemonThreads;
import io.seatlock.lock.internal.ReleaseHints;
import io.seatlock.lock.spi.BlockingAcquire;
import io.seatlock.lock.spi.HeldLeases;
import io.seatlock.lock.spi.LeaseTiming;
import io.seatlock.lock.spi.LockListeners;
import io.seatlock.lock.spi.LockSpec;
import io.seatlock.lock.spi.SafetyMargin;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiFunction;

/**
 * The lock on a database's lease table, whatever the database: each public lock on one ({@code PostgresLock},
 * {@code MySqlLock}) is this with its dialect's statements and its way of hearing releases. A grant is one statement
 * that waits for a guarded write of the previous holder within the call bound, then counts as busy; a grant whose
 * answer is unknown is taken back in the background. No connection is held while a lease is.
 */
public final class LeaseTableLock implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaseTableLock.class);

    private final LeaseTableDialect dialect;
    private final String instanceId;
    private final Duration callTimeout;
    private final SafetyMargin margin;
    /** Its waiting threads stand in line per name: a release wakes one attempt of this lock, not all. */
    private final BlockingAcquire blocking;
    private final LockListener listener;
    private final JdbcCalls calls;
    private final ExecutorService renewals;
    private final HeldLeases<RowLease> held = new HeldLeases<>("this lock");
    private final ReleaseSignals signals;
    private final LeaseSupport support;

    /**
     * A lock on a data source.
     *
     * @param dataSource  where the lease table is
     * @param dialect     that database's statements
     * @param instanceId  this process's name in owner tokens
     * @param callTimeout the bound of every call
     * @param timing      the safety margin and the back-off
     * @param listener    told what the lock does; whatever it throws is logged and ignored
     * @param threadName  the name of the lock's renewal threads
     * @param signals     how the lock hears releases, given its calls and its background threads
     */
    public LeaseTableLock(DataSource dataSource, LeaseTableDialect dialect, String instanceId, Duration callTimeout,
                          LeaseTiming timing, LockListener listener, String threadName,
                          BiFunction<JdbcCalls, ExecutorService, ReleaseSignals> signals) {
        this.dialect = dialect;
        this.instanceId = instanceId;
        this.callTimeout = callTimeout;
        this.margin = timing.safetyMargin();
        this.blocking = new BlockingAcquire(timing);
        this.listener = LockListeners.guarded(List.of(listener));
        this.calls = new JdbcCalls(dataSource, dialect, callTimeout, this.listener);
        this.renewals = Executors.newCachedThreadPool(DaemonThreads.named(threadName));
        this.signals = signals.apply(calls, renewals);
        this.support = new LeaseSupport(calls, dialect, renewals, held.services(dialect.storeName(), calls, margin,
                this.listener), this.signals);
    }

    /** As the public lock's {@code createTable} says. */
    public void createTable() {
        held.requireOpen();
        calls.call("schema", c -> {
            dialect.createTable(c);
            return null;
        });
    }

    /** As {@code DistributedLock.tryAcquire} says. */
    public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
        return attempt(margin.spec(name, ttl, impact), false).lease();
    }

    /** As {@code DistributedLock.tryAcquireUnlessDecided} says. */
    public AcquireAttempt tryAcquireUnlessDecided(String name, Duration ttl, OverlapImpact impact) {
        return attempt(margin.spec(name, ttl, impact), true);
    }

    /** As {@code DistributedLock.acquire} says. */
    public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException {
        LockSpec spec = margin.spec(name, ttl, impact);
        return blocking.acquire(name, maxWait, () -> attempt(spec, false).lease(),
                atMost -> ReleaseHints.await(() -> whenReleased(name), atMost));
    }

    /** As {@code DistributedLock.whenReleased} says, completed on a callback thread of this lock's. */
    public CompletableFuture<Void> whenReleased(String name) {
        return held.relay(released(name));
    }

    private CompletableFuture<Void> released(String name) {
        held.requireOpen();
        LockSpec.requireValidName(name);
        return signals.next(name);
    }

    private AcquireAttempt attempt(LockSpec spec, boolean unlessDecided) {
        return held.attempt(() -> attemptOnce(spec, unlessDecided));
    }

    /** What one grant statement found. */
    private record Answer(OptionalLong token, LeaseTableDialect.@Nullable Refusal refusal) {
    }

    private AcquireAttempt attemptOnce(LockSpec spec, boolean unlessDecided) {
        String name = spec.name();
        String group = LockListeners.groupOf(name);
        listener.onAttempt(group);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String owner = new UUID(random.nextLong(), random.nextLong()) + "@" + instanceId;
        long start = System.nanoTime();
        long deadline = start + callTimeout.toNanos();
        Answer answer;
        try {
            answer = calls.callOrThrow(deadline, c -> {
                // the row may be held by a guarded write; leave room for the answer within the bound
                Duration rowWait = Duration.ofNanos((deadline - System.nanoTime()) * 3 / 4);
                OptionalLong token = dialect.grant(c, name, owner, instanceId, spec.ttl(), unlessDecided, rowWait);
                return new Answer(token, token.isEmpty() && unlessDecided ? dialect.refusal(c, name) : null);
            });
        } catch (SQLException e) {
            if (dialect.isRowWaitTimeout(e)) { // the row stayed in use for the whole wait
                listener.onBusy(group);
                return AcquireAttempt.busy(null);
            }
            listener.onUnavailable(group);
            takeBack(name, owner); // whether it granted is unknown
            throw calls.unavailable(group, e);
        }
        if (answer.token().isEmpty()) {
            LeaseTableDialect.Refusal refusal = answer.refusal();
            if (refusal != null && refusal.decided()) {
                listener.onDecided(group);
                return AcquireAttempt.alreadyDecided();
            }
            listener.onBusy(group);
            return AcquireAttempt.busy(refusal == null ? null : refusal.busyFor());
        }
        RowLease lease = new RowLease(support, spec, group, owner, new FencingToken(answer.token().getAsLong()), start);
        if (!lease.isValid()) {
            // the database answered after the lease's own validity: someone else may already hold it. Not ours.
            listener.onLateGrant(group);
            takeBack(name, owner);
            return AcquireAttempt.busy(null);
        }
        held.granted(lease);
        listener.onAcquired(group, spec.impact());
        return AcquireAttempt.acquired(lease);
    }

    /** Releases a grant nobody will use, in the background; if the database does not answer, it expires. */
    private void takeBack(String name, String owner) {
        try {
            renewals.execute(() -> {
                try {
                    calls.call(LockListeners.groupOf(name), c -> dialect.release(c, name, owner));
                } catch (LockUnavailableException e) {
                    log.debug("could not take back a grant of '{}'; it expires: {}", name, e.getMessage());
                }
            });
        } catch (RejectedExecutionException closing) {
            log.debug("lock closed; a grant of '{}' nobody uses expires", name);
        }
    }

    /** As {@code DistributedLock.remainingTtl} says. */
    public Optional<Duration> remainingTtl(String name) {
        held.requireOpen();
        LockSpec.requireValidName(name);
        OptionalLong left = calls.call(LockListeners.groupOf(name), c -> dialect.remainingMillis(c, name));
        return left.isPresent() ? Optional.of(Duration.ofMillis(left.getAsLong())) : Optional.empty();
    }

    /** As {@code DistributedLock.holder} says. */
    public Optional<String> holder(String name) {
        held.requireOpen();
        LockSpec.requireValidName(name);
        return Optional.ofNullable(calls.call(LockListeners.groupOf(name), c -> dialect.holder(c, name)));
    }

    /** As {@code DistributedLock.heldNames} says: an index range scan of the names with that prefix. */
    public Set<String> heldNames(String namePrefix) {
        held.requireOpen();
        LockSpec.requireValidNamePrefix(namePrefix);
        return Set.copyOf(calls.call("status", c -> dialect.heldNames(c, namePrefix)));
    }

    /** As {@code DistributedLock.held} says. */
    public Set<String> held(Collection<String> names) {
        held.requireOpen();
        if (names.isEmpty()) {
            return Set.of();
        }
        return Set.copyOf(calls.call("status", c -> dialect.held(c, names)));
    }

    /** One round trip to the database, for health checks; how long it took. */
    public Duration ping() {
        held.requireOpen();
        long start = System.nanoTime();
        calls.call("health", c -> {
            try (Statement s = c.createStatement()) {
                return s.execute("SELECT 1");
            }
        });
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** The leases this instance holds right now. */
    public List<LockLease> heldLeases() {
        return held.list();
    }

    /**
     * Stops renewing, lets acquire calls under way land, releases what this instance holds within one call timeout in
     * all, and stops listening; a second close does nothing.
     */
    @Override
    public void close() {
        if (held.close(calls.callDeadline(), lease -> CompletableFuture.runAsync(lease::close, renewals),
                callTimeout.toNanos())) {
            renewals.shutdown();
            signals.close();
        }
    }
}
