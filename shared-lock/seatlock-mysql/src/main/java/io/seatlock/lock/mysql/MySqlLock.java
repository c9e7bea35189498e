package io.seatlock.lock.mysql;

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
 * The lock on MySQL 8 or MariaDB 10.11 and later (InnoDB) alone: a lease row per name in one table ({@link
 * #DDL_RESOURCE}), granted in one statement when the row is free or expired (the first grant of a name inserts it);
 * released and renewed only by the owner token that was granted. Thread-safe; share one per application.
 *
 * <p>How the API's terms map onto the database: a lease is the row's owner token and its expiry, {@code
 * UTC_TIMESTAMP(6)} plus the ttl, by the database's clock alone; {@code UTC_TIMESTAMP(6)} is the statement's start,
 * so a statement that waited for a row judges as of before its wait: a lease it finds live may have ended during the
 * wait (it answers busy), and one it grants ends that much sooner, both on the safe side. A release clears the owner
 * and keeps the row, so the fencing token, the row's own, only grows; a name's first row takes its token from the
 * table's token row ({@code <table>_tokens}), which a trigger raises to the token of every deleted row and {@link
 * #createTable} above every token in the table, so tokens grow across a deleted row too. Tokens commit or are lost
 * with the database: after an asynchronous replica is promoted, grants it never received are lost and a token can
 * repeat.
 *
 * <p>Waiters: MySQL has no {@code LISTEN/NOTIFY}. A release by this lock wakes its own waiter at once; a waiter in
 * another process tries again on its back-off ({@link io.seatlock.lock.spi.LeaseTiming}), so a hand-over between
 * processes takes up to its longest pause.
 *
 * <p>The call bound is {@link MySqlLockSettings#callTimeout()}: the time to borrow a connection counts (give the lock
 * a pool whose own wait is no longer, such as HikariCP's {@code connectionTimeout}; the Spring Boot starter makes
 * one), socket reads are bounded by what is left, and a grant waits for the row (a guarded write of the previous
 * holder, see {@link MySqlLeaseFence}) for InnoDB's lock wait, in whole seconds within the bound, then counts as busy;
 * a grant InnoDB picks as a deadlock's victim is rolled back and counts as busy too. No connection is held while a
 * lease is held. Renewals run on threads of their own; lost-lease callbacks on their own threads, never while a lock
 * of this library is held.
 */
public final class MySqlLock implements DistributedLock, AutoCloseable {

    /** The lease table's DDL on the class path (its own location, apart from Flyway's), for running by hand. */
    public static final String DDL_RESOURCE = "db/seatlock-lock/mysql/R__seatlock_lock_leases.sql";

    private final MySqlLockSettings settings;
    private final LeaseTableLock lock;

    private MySqlLock(DataSource dataSource, MySqlLockSettings settings, LockListener listener) {
        this.settings = settings;
        MySqlLeaseStatements statements = new MySqlLeaseStatements(settings.table(), settings.callTimeout());
        this.lock = new LeaseTableLock(dataSource, statements, settings.instanceId(), settings.callTimeout(),
                settings.timing(), listener, "seatlock-mysql-renewal",
                (calls, background) -> new LocalReleases(calls, statements, background));
    }

    /**
     * The lock on a data source. It connects on first use.
     *
     * @param dataSource where the lease table is; best a pool of the lock's own whose wait for a connection is no
     *                   longer than the call timeout (on MySQL the lock sets {@code innodb_lock_wait_timeout} on its
     *                   sessions)
     * @param settings   table, instance id, call timeout, safety margin, back-off
     * @param listener   told what the lock does; whatever it throws is logged and ignored
     * @return the lock
     */
    public static MySqlLock over(DataSource dataSource, MySqlLockSettings settings, LockListener listener) {
        return new MySqlLock(Objects.requireNonNull(dataSource, "dataSource"),
                Objects.requireNonNull(settings, "settings"), Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Creates the lease table, its token table and trigger if they are missing ({@link #DDL_RESOURCE}, under the
     * settings' table name), one replica at a time (a named lock of the server's), and raises the token row above
     * every token in the table. Idempotent; run it when the application starts, before the first lock is taken.
     *
     * @throws LockUnavailableException if the database did not answer within the call timeout or refused (no right
     *                                  to create tables or triggers: run the DDL as an administrator instead)
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
     * Completes when this lock releases {@code name}, or at once if the lock turns out to be free (one statement); a
     * release by another process is not announced (wait with a bound of your own, and cancel it when you stop
     * waiting). Completes on a callback thread of this lock's ({@code
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
     * One round trip to the database, for health checks.
     *
     * @return how long it took
     * @throws LockUnavailableException if the database did not answer within the call timeout
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
    public MySqlLockSettings settings() {
        return settings;
    }

    /**
     * Stops renewing, lets acquire calls under way land, and releases what this instance holds within one call
     * timeout in all. The data source is the caller's and stays open. Afterwards every call of this lock is a {@link
     * LockClosedException}, at once and with nothing sent; a second close does nothing.
     */
    @Override
    public void close() {
        lock.close();
    }

    @Override
    public String toString() {
        return "MySqlLock[" + settings.table() + ", " + settings.instanceId() + "]";
    }
}
