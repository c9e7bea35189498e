package io.seatlock.lock.leader;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.Fence;
import io.seatlock.lock.FencingToken;
import io.seatlock.lock.LockClosedException;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.StaleFencingTokenException;
import io.seatlock.lock.spi.InstanceId;
import io.seatlock.lock.spi.LockSpec;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Leader election on a shared lock: the leader holds {@code leader:<group>} with a renewed lease;
 * its epoch is the grant's fencing token. Leadership is revoked when a renewal finds the lock lost or
 * renewals keep failing until the local deadline is near, so before another candidate can take it.
 * That still does not stop a paused leader from writing late: leader writes carry the epoch and
 * storage rejects older ones.
 *
 * <p>No callback and no call to the lock's store runs under a lock of the election: a term changes atomically,
 * {@link Candidate} callbacks run on the election's own callback thread, and a yielding leader hears
 * {@code onRevoked} (after any callback still running) before its lock is released. {@link #start()} starts the campaign thread;
 * the constructor starts nothing.
 */
public final class LeaderElection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);

    private final DistributedLock lock;
    private final String group;
    private final String candidate;
    private final Duration lease;
    private final Duration retry;
    private final Candidate callbacks;
    private final AtomicReference<LockLease> current = new AtomicReference<>();
    private final AtomicReference<Thread> campaign = new AtomicReference<>();
    /** Makes "change the term, queue its callback" one step, so close() cannot drop a revocation. Held for nothing else. */
    private final ReentrantLock termChange = new ReentrantLock();
    private volatile @Nullable LeadershipCallbacks notifier;
    /** After a yield, this candidate does not campaign until then ({@link System#nanoTime()}), so another one takes over. */
    private volatile long quietUntilNanos = System.nanoTime();

    /**
     * An election of {@code group} on {@code lock}: name the candidate, the lease and the retry on the builder (each
     * has a default), then {@link Builder#build(Candidate)}; the election starts nothing until {@link #start()}.
     *
     * @param lock  the lock every replica shares
     * @param group the group's name; the leader holds {@code leader:<group>}, which must be a valid lock name
     * @return a builder
     */
    public static Builder forGroup(DistributedLock lock, String group) {
        return new Builder(lock, group);
    }

    /** How one election campaigns: this replica's name, the lease and the retry, each with a default. */
    public static final class Builder {
        private final DistributedLock lock;
        private final String group;
        private String candidate = InstanceId.ofThisProcess();
        private Duration lease = LeaderElections.Term.DEFAULT_LEASE;
        private Duration retry = LeaderElections.Term.DEFAULT_RETRY;

        private Builder(DistributedLock lock, String group) {
            this.lock = Objects.requireNonNull(lock, "lock");
            this.group = Objects.requireNonNull(group, "group");
        }

        /**
         * This replica's name in the election.
         *
         * @param name the name; default {@code <host>-<pid>}
         * @return this builder
         */
        public Builder candidate(String name) {
            this.candidate = Objects.requireNonNull(name, "candidate");
            return this;
        }

        /**
         * How long a term lasts unless renewed (renewed at a third of it).
         *
         * @param term the lease; default {@link LeaderElections.Term#DEFAULT_LEASE}
         * @return this builder
         */
        public Builder lease(Duration term) {
            this.lease = term;
            return this;
        }

        /**
         * The pause between campaign attempts of a non-leader; shorter than the lease.
         *
         * @param pause the retry; default {@link LeaderElections.Term#DEFAULT_RETRY}
         * @return this builder
         */
        public Builder retry(Duration pause) {
            this.retry = pause;
            return this;
        }

        /**
         * Makes the election; starts nothing.
         *
         * @param callbacks told of each grant and revocation
         * @return the election
         * @throws IllegalArgumentException if {@code leader:<group>} is not a valid lock name
         *                                  ({@link LockSpec#requireValidName}), or the lease or retry is bad
         */
        public LeaderElection build(Candidate callbacks) {
            return new LeaderElection(this, callbacks);
        }
    }

    private LeaderElection(Builder settings, Candidate callbacks) {
        this.lock = settings.lock;
        LockSpec.requireValidName(settings.group);
        LockSpec.requireValidName(lockNameOf(settings.group)); // what every campaign asks for: refused here, not each try
        this.group = settings.group;
        this.candidate = settings.candidate;
        this.lease = LockSpec.requireValidTtl(settings.lease);
        this.callbacks = Objects.requireNonNull(callbacks, "callbacks");
        Duration retry = settings.retry;
        if (retry == null || retry.isNegative() || retry.isZero() || retry.compareTo(lease) >= 0) {
            throw new IllegalArgumentException("retry " + retry + " must be positive and shorter than the lease " + lease);
        }
        this.retry = retry;
    }

    /** Starts campaigning; a second call while running does nothing. */
    public void start() {
        Thread loop = new Thread(this::campaign, "leader-election-" + group + "-" + candidate);
        loop.setDaemon(true);
        if (campaign.compareAndSet(null, loop)) {
            notifier = new LeadershipCallbacks(group);
            loop.start();
        }
    }

    /**
     * Whether it campaigns.
     * @return true between {@link #start()} and {@link #close()}
     */
    public boolean isRunning() {
        return campaign.get() != null;
    }

    /**
     * The group this election is for.
     * @return the group's name
     */
    public String group() {
        return group;
    }

    /**
     * The lock the leader holds.
     * @return {@code leader:<group>}
     */
    public String lockName() {
        return lockNameOf(group);
    }

    /**
     * The lock a group's leader holds, also the fence resource of its writes.
     *
     * @param group the group's name
     * @return {@code leader:<group>}
     */
    public static String lockNameOf(String group) {
        return "leader:" + group;
    }

    /**
     * This replica's name in the election.
     * @return the candidate
     */
    public String candidate() {
        return candidate;
    }

    /**
     * Whether this replica leads now, on its own lease's local deadline (no round trip to the store).
     * @return true while this candidate's term is valid
     */
    public boolean isLeader() {
        LockLease l = current.get();
        return l != null && l.isValid();
    }

    /**
     * The epoch of this candidate's current term.
     *
     * @return the epoch if it leads now, else empty
     */
    public Optional<FencingToken> epoch() {
        LockLease l = current.get();
        return l != null && l.isValid() ? Optional.of(l.fencingToken()) : Optional.empty();
    }

    /**
     * A fenced leader write: if this candidate leads, admits its epoch on the fence row
     * {@code leader:<group>} in the caller's transaction on {@code connection}, then runs {@code work}.
     * Storage that has seen a newer epoch refuses it: this candidate then yields and the
     * {@link StaleFencingTokenException} tells the caller to roll back. A paused leader that wakes up
     * after its term has passed to another can therefore write nothing.
     *
     * @param connection the connection of the caller's transaction, which {@code work} writes on too
     * @param fence      the storage that admits or refuses the epoch
     * @param work       the leader-only write
     * @param <T>        what the write returns
     * @return wrote (in which epoch, and what {@code work} returned), or not leading (nothing was written)
     * @throws SQLException         if the fence or the write failed
     * @throws IllegalStateException if {@code connection} is in auto-commit mode (from the fence): nothing is written
     */
    public <T> LeaderWrite<T> writeAsLeader(Connection connection, Fence fence, LeaderWork<T> work)
            throws SQLException {
        // before the fence admits anything, and whether or not this candidate leads: a missing part is a bug either way
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(fence, "fence");
        Objects.requireNonNull(work, "work");
        Optional<FencingToken> epoch = epoch();
        if (epoch.isEmpty()) {
            return LeaderWrite.notLeading();
        }
        try {
            fence.admit(connection, lockName(), epoch.get());
        } catch (StaleFencingTokenException e) {
            log.atWarn().addKeyValue("seatlock.event", "leader-write-refused").addKeyValue("seatlock.leader.group", group)
                    .addKeyValue("seatlock.leader.candidate", candidate).addKeyValue("seatlock.leader.epoch", epoch.get().value())
                    .log("{} wrote as leader of {} in epoch {} but the fence refused it ({}); stepping down", candidate,
                            group, epoch.get(), e.getMessage());
            yieldLeadership();
            throw e;
        }
        return LeaderWrite.wrote(epoch.get(), work.run(epoch.get()));
    }

    /**
     * Who leads this group now (any replica), as the lock's store says. For status displays.
     *
     * @return the leader's name, or empty if nobody leads
     */
    public Optional<String> leader() {
        return lock.holder(lockName());
    }

    /**
     * Time left on the current term's local deadline.
     *
     * @return the time left; zero when not leading
     */
    public Duration remainingLease() {
        LockLease l = current.get();
        return l == null ? Duration.ZERO : l.validFor();
    }

    /**
     * Gives leadership up now: this candidate hears {@code onRevoked} (after any callback still running),
     * then its lock is released and others may take it; it campaigns again only a retry after the release, so another
     * candidate, woken by the release, takes over (with none, nobody leads for that retry). Waits for the
     * revocation at most until the term's lease runs out (it expires then anyway), and for the store at most its
     * call bound. Called from a callback of this election, it does not wait for itself.
     */
    public void yieldLeadership() {
        LockLease l = current.get();
        if (l == null) {
            return;
        }
        Future<?> revoked = endTerm(l);
        if (revoked != null) {
            quietFor(l.validFor().plus(retry)); // not while the term ends
            LeadershipCallbacks callbacksNow = notifier;
            if (callbacksNow != null) {
                callbacksNow.await(revoked, l.validFor());
            }
            l.close();
            quietFor(retry); // the others, woken by the release, take over first
        }
    }

    private void quietFor(Duration pause) {
        quietUntilNanos = System.nanoTime() + pause.toNanos();
    }

    private void campaign() {
        boolean lockClosed = false;
        try {
            while (campaign.get() == Thread.currentThread()) {
                boolean waitForRelease = false;
                long quietNanos = 0;
                try {
                    LockLease term = current.get();
                    long yieldedFor = quietUntilNanos - System.nanoTime();
                    if (term == null && yieldedFor > 0) {
                        quietNanos = yieldedFor;
                        log.debug("election {}: {} yielded; campaigns again in {} ms", group, candidate,
                                TimeUnit.NANOSECONDS.toMillis(quietNanos));
                    } else if (term == null) {
                        Optional<LockLease> granted = lock.tryAcquire(lockName(), lease, OverlapImpact.BROKEN_PROMISE);
                        granted.ifPresent(this::grant);
                        waitForRelease = granted.isEmpty(); // a leader stepping down hands over at once
                    } else if (!term.isValid()) {
                        endTerm(term);
                    }
                } catch (LockUnavailableException e) {
                    log.debug("election {}: the lock is unavailable: {}", group, e.getMessage());
                } catch (LockClosedException e) {
                    // the application closes the lock: a term granted as it closed is released with it
                    log.info("election {}: the lock was closed; {} stops campaigning", group, candidate);
                    lockClosed = true;
                    break;
                } catch (RuntimeException | Error e) {
                    if (e instanceof VirtualMachineError fatal) {
                        throw fatal;
                    }
                    // Even an Error from the lock (a class missing from the class path) must not end the campaign
                    // for good while isRunning() still says it runs: the next attempt may succeed.
                    log.warn("election {}: campaign attempt failed; trying again", group, e);
                }
                try {
                    if (quietNanos > 0) {
                        TimeUnit.NANOSECONDS.sleep(quietNanos);
                    } else if (waitForRelease) {
                        lock.awaitRelease(lockName(), retry);
                    } else {
                        Thread.sleep(retry.toMillis());
                    }
                } catch (InterruptedException e) {
                    break;
                }
            }
        } finally {
            yieldLeadership(); // a term granted while close() ran, or before a fatal error, must not outlive the campaign
            if (lockClosed && campaign.compareAndSet(Thread.currentThread(), null)) {
                stopCallbacks(); // the election ended with its lock: close() finds nothing left to do
            }
        }
    }

    private void grant(LockLease granted) {
        termChange.lock();
        try {
            current.set(granted);
            notify(() -> callbacks.onGranted(granted.fencingToken()));
        } finally {
            termChange.unlock();
        }
        log.atInfo().addKeyValue("seatlock.event", "leader-granted").addKeyValue("seatlock.leader.group", group)
                .addKeyValue("seatlock.leader.candidate", candidate)
                .addKeyValue("seatlock.leader.epoch", granted.fencingToken().value())
                .log("{} leads {} in epoch {}", candidate, group, granted.fencingToken());
        granted.keepAlive(() -> endTerm(granted));
    }

    /**
     * Ends {@code ended} if it is still the current term and queues its revocation.
     *
     * @return the queued revocation (done at once if none could be queued), or null if the term had ended
     */
    private @Nullable Future<?> endTerm(LockLease ended) {
        Future<?> revoked;
        termChange.lock();
        try {
            if (!current.compareAndSet(ended, null)) {
                return null;
            }
            revoked = notify(() -> callbacks.onRevoked(ended.fencingToken()));
        } finally {
            termChange.unlock();
        }
        log.atInfo().addKeyValue("seatlock.event", "leader-revoked").addKeyValue("seatlock.leader.group", group)
                .addKeyValue("seatlock.leader.candidate", candidate)
                .addKeyValue("seatlock.leader.epoch", ended.fencingToken().value())
                .log("{} no longer leads {} (epoch {})", candidate, group, ended.fencingToken());
        return revoked;
    }

    /**
     * Stops campaigning and gives leadership up, waiting for the lock's store at most its call bound; the
     * last revocation is delivered before this returns (or is dropped after five seconds).
     */
    @Override
    public void close() {
        Thread loop = campaign.getAndSet(null);
        if (loop == null) {
            return;
        }
        loop.interrupt();
        try {
            loop.join(TimeUnit.SECONDS.toMillis(10)); // the loop yields on its way out
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        yieldLeadership();
        stopCallbacks();
    }

    private Future<?> notify(Runnable callback) {
        LeadershipCallbacks callbacksNow = notifier;
        return callbacksNow == null ? CompletableFuture.completedFuture(null) : callbacksNow.queue(callback);
    }

    /** Lets the queued callbacks (the last revocation) run, at most five seconds, and takes no more. */
    private void stopCallbacks() {
        LeadershipCallbacks callbacksNow = notifier;
        if (callbacksNow == null) {
            return;
        }
        termChange.lock();
        try {
            callbacksNow.shutdown();
        } finally {
            termChange.unlock();
        }
        callbacksNow.awaitQueued();
    }
}
