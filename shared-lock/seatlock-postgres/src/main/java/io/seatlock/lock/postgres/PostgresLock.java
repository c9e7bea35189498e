package io.seatlock.lock.postgres;

import io.seatlock.lock.AcquireAttempt;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockClosedException;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.jdbc.internal.LeaseTableLock;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The lock on PostgreSQL alone: a lease row per name in one table ({@link #DDL_RESOURCE}), granted in one statement
 * when the row is absent, free or expired; released and renewed only by the owner token that was granted. Thread-safe;
 * share one per application.
 *
 * <p>How the API's terms map onto PostgreSQL: a lease is the row's owner token and its expiry, {@code
 * clock_timestamp()} plus the ttl, by the database's clock alone (never a replica's, never the transaction's
 * {@code now()}), so {@link #remainingTtl} is that expiry less the database's time. A release clears the owner and
 * keeps the row, so the fencing token, the row's own, only grows: a grant takes the larger of the row's token plus one
 * and the table's sequence ({@code <table>_tokens}, which also serves a name whose row was deleted; {@link
 * #createTable} raises it above every token in the table, so a sequence restored behind the rows cannot repeat one).
 * Tokens commit or are lost with the database, writes fenced in it included; a token used in another store after
 * this database was restored from a backup can repeat. {@link #heldNames} is an index range scan of the names with that
 * prefix, {@link #held} one statement; {@link #whenReleased} hears the release by {@code LISTEN/NOTIFY} on the
 * channel {@code <table>_released} (a release announces itself only when a waiter marked the lock).
 *
 * <p>The call bound is {@link PostgresLockSettings#callTimeout()}: the time to borrow a connection counts (give the
 * lock a pool whose own wait is no longer, such as HikariCP's {@code connectionTimeout}; the Spring Boot starter
 * makes one), socket reads are bounded by what is left, and a grant waits for the row (a guarded write of the
 * previous holder, see {@link PostgresLeaseFence}) within the bound, then counts as busy. No connection is held
 * while a lease is held: each call borrows one and gives it back; the release listener keeps one of its own once
 * something waits. Renewals run on threads of their own, so one that waits on a silent database delays no other
 * lease's; lost-lease callbacks run on their own threads, never while a lock of this library is held.
 */
public final class PostgresLock implements DistributedLock, AutoCloseable {

    /**
     * The lease table's DDL on the class path (in a location of its own, so that {@code classpath:db/seatlock} in
     * Flyway's locations does not create it for an application on Redis), for running by hand.
     */
    public static final String DDL_RESOURCE = "db/seatlock-lock/R__seatlock_lock_leases.sql";

    private final PostgresLockSettings settings;
    private final LeaseTableLock lock;

    private PostgresLock(DataSource dataSource, PostgresLockSettings settings, LockListener listener) {
        this.settings = settings;
        LeaseStatements statements = new LeaseStatements(settings.table());
        this.lock = new LeaseTableLock(dataSource, statements, settings.instanceId(), settings.callTimeout(),
                settings.timing(), listener, "seatlock-pg-renewal", (calls, background) ->
                new ReleaseNotifications(dataSource, statements, settings.callTimeout(), calls, background));
    }

    /**
     * The lock on a data source. It connects on first use.
     *
     * @param dataSource where the lease table is; best a pool of the lock's own whose wait for a connection is no
     *                   longer than the call timeout, so that the application's busy pool cannot stall the lock
     * @param settings   table, instance id, call timeout, safety margin, back-off
     * @param listener   told what the lock does; whatever it throws is logged and ignored
     * @return the lock
     */
    public static PostgresLock over(DataSource dataSource, PostgresLockSettings settings, LockListener listener) {
        return new PostgresLock(Objects.requireNonNull(dataSource, "dataSource"),
                Objects.requireNonNull(settings, "settings"), Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Creates the lease table and its sequence if they are missing ({@link #DDL_RESOURCE}, under the settings' table
     * name), one replica at a time, and raises the sequence above every token in the table. Idempotent; run it when
     * the application starts, before the first lock is taken (the migration gate needs the table before any
     * migration runs).
     *
     * @throws LockUnavailableException if PostgreSQL did not answer within the call timeout or refused (no right to
     *                                  create tables: run the DDL as an owner of the schema instead)
     */
    public void createTable() {
        lock.createTable();
    }

    @Override
    public Optional<LockLease> tryAcquire(String name, Duration ttl, OverlapImpact impact) {
        return lock.tryAcquire(name, ttl, impact);
    }

    @Override
    public AcquireAttempt tryAcquireUnlessDecided(String name, Duration ttl, OverlapImpact impact) {
        return lock.tryAcquireUnlessDecided(name, ttl, impact);
    }

    @Override
    public LockLease acquire(String name, Duration ttl, OverlapImpact impact, Duration maxWait)
            throws InterruptedException {
        return lock.acquire(name, ttl, impact, maxWait);
    }

    /**
     * Completes soon after the holder of {@code name} releases it, told by the release itself: this marks the lease
     * row as waited for (one statement), and a marked lease's release sends a notification, which this lock hears on
     * a connection of its own, opened on first use. Completes at once if the lock turns out to be free, and whenever
     * the listening connection is (re)opened. Never completes if the holder's lease just expires, so wait with a bound
     * of your own; cancel it when you stop waiting. Completes on a callback thread of this lock's ({@code
     * seatlock-callback}), so what you chain on it may block, or call this lock.
     */
    @Override
    public CompletableFuture<Void> whenReleased(String name) {
        return lock.whenReleased(name);
    }

    @Override
    public Optional<Duration> remainingTtl(String name) {
        return lock.remainingTtl(name);
    }

    @Override
    public Optional<String> holder(String name) {
        return lock.holder(name);
    }

    /** An index range scan of the names that start with {@code namePrefix}. */
    @Override
    public Set<String> heldNames(String namePrefix) {
        return lock.heldNames(namePrefix);
    }

    @Override
    public Set<String> held(Collection<String> names) {
        return lock.held(names);
    }

    /**
     * One round trip to PostgreSQL, for health checks.
     *
     * @return how long it took
     * @throws LockUnavailableException if PostgreSQL did not answer within the call timeout
     * @throws LockClosedException      if this lock is closed
     */
    public Duration ping() {
        return lock.ping();
    }

    /**
     * Leases this instance holds right now, for status pages such as {@code /actuator/locks}.
     *
     * @return the held leases (released and lost ones are gone)
     */
    public List<LockLease> heldLeases() {
        return lock.heldLeases();
    }

    /**
     * How this lock was set up.
     *
     * @return its settings
     */
    public PostgresLockSettings settings() {
        return settings;
    }

    /**
     * Stops renewing, lets acquire calls under way land, releases what this instance holds (a grant that landed as it
     * closed too) within one call timeout in all, and stops listening. The data source is the caller's and stays open.
     * Afterwards every call of this lock is a {@link LockClosedException}, at once and with nothing sent; a second
     * close does nothing.
     */
    @Override
    public void close() {
        lock.close();
    }

    @Override
    public String toString() {
        return "PostgresLock[" + settings.table() + ", " + settings.instanceId() + "]";
    }
}
