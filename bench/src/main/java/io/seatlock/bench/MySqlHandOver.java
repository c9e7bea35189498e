package io.seatlock.bench;

import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.mysql.MySqlLock;
import io.seatlock.lock.mysql.MySqlLockSettings;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/**
 * Release to next holder on MariaDB, which announces no release: seatlock's waiting {@code acquire} in another replica
 * (its own lock and pool: it learns of the release at its next try, on the default back-off, 10 ms doubling to
 * 200 ms), the same in the holder's own lock (the release wakes its waiter at once), and Spring Integration's
 * {@code tryLock(timeout)} (polling every 100 ms, its default), each measured as {@link PostgresHandOver} measures.
 */
final class MySqlHandOver {

    private MySqlHandOver() {
    }

    static String run(int rounds, int warmUpRounds) throws Exception {
        StringBuilder md = new StringBuilder("Hand-over, from the holder's release call to the waiter holding the lock ("
                + rounds + " rounds after " + warmUpRounds + " uncounted):\n\n| waiter | warm-up rounds | counted rounds "
                + "| p50 ms | p99 ms | max ms |\n|---|---|---|---|---|---|\n");
        try (PostgresHandOver.Pair otherReplica = seatlock(false)) {
            md.append(PostgresHandOver.row("seatlock `MySqlLock.acquire`, waiter in another replica (default back-off)",
                    otherReplica, rounds, warmUpRounds));
        }
        try (PostgresHandOver.Pair sameLock = seatlock(true)) {
            md.append(PostgresHandOver.row("seatlock `MySqlLock.acquire`, waiter in the holder's own lock",
                    sameLock, rounds, warmUpRounds));
        }
        try (PostgresHandOver.Pair integration = springIntegration()) {
            md.append(PostgresHandOver.row("Spring Integration `JdbcLockRegistry` `tryLock(timeout)`", integration,
                    rounds, warmUpRounds));
        }
        md.append("| ShedLock `JdbcTemplateLockProvider` | - | - | no waiting acquire | | |\n");
        return md.toString();
    }

    private static PostgresHandOver.Pair seatlock(boolean sameLock) {
        HikariDataSource holderPool = pool("handover-holder");
        HikariDataSource waiterPool = pool("handover-waiter");
        MySqlLock holder = MySqlLock.over(holderPool, MySqlLockSettings.defaults().withInstanceId("holder"),
                LockListener.NOOP);
        MySqlLock waiter = sameLock ? holder : MySqlLock.over(waiterPool,
                MySqlLockSettings.defaults().withInstanceId("waiter"), LockListener.NOOP);
        holder.createTable();
        return new PostgresHandOver.Pair() {
            public Runnable hold(String name) {
                LockLease lease = holder.tryAcquire(name, PostgresRoundTrip.LEASE, OverlapImpact.WASTED_WORK).orElseThrow();
                return lease::release;
            }

            public void awaitLock(String name) throws Exception {
                waiter.acquire(name, PostgresRoundTrip.LEASE, OverlapImpact.WASTED_WORK, Duration.ofSeconds(30)).release();
            }

            public void close() {
                holder.close();
                waiter.close();
                holderPool.close();
                waiterPool.close();
            }
        };
    }

    private static PostgresHandOver.Pair springIntegration() throws Exception {
        HikariDataSource holderPool = pool("handover-holder");
        HikariDataSource waiterPool = pool("handover-waiter");
        new JdbcTemplate(holderPool).execute("CREATE TABLE IF NOT EXISTS INT_LOCK (LOCK_KEY CHAR(36) NOT NULL, "
                + "REGION VARCHAR(100) NOT NULL, CLIENT_ID CHAR(36), CREATED_DATE DATETIME(6) NOT NULL, "
                + "EXPIRED_AFTER DATETIME(6) NOT NULL, CONSTRAINT INT_LOCK_PK PRIMARY KEY (LOCK_KEY, REGION)) ENGINE=InnoDB");
        JdbcLockRegistry holder = registry(holderPool);
        JdbcLockRegistry waiter = registry(waiterPool);
        return new PostgresHandOver.Pair() {
            public Runnable hold(String name) {
                Lock lock = holder.obtain(name);
                if (!lock.tryLock()) {
                    throw new IllegalStateException("the holder could not take " + name);
                }
                return lock::unlock;
            }

            public void awaitLock(String name) throws Exception {
                Lock lock = waiter.obtain(name);
                if (!lock.tryLock(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the waiter did not get " + name);
                }
                lock.unlock();
            }

            public void close() {
                holderPool.close();
                waiterPool.close();
            }
        };
    }

    private static JdbcLockRegistry registry(HikariDataSource pool) {
        DefaultLockRepository repository = new DefaultLockRepository(pool);
        repository.setRegion("handover");
        repository.setTransactionManager(new DataSourceTransactionManager(pool));
        repository.afterPropertiesSet();
        repository.afterSingletonsInstantiated();
        return new JdbcLockRegistry(repository, PostgresRoundTrip.LEASE);
    }

    private static HikariDataSource pool(String name) {
        return MySqlRoundTrip.pool(name, 4);
    }

    /** The MariaDB server's version, for a result's provenance. */
    static String serverVersion() {
        HikariDataSource pool = pool("version");
        try {
            return new JdbcTemplate(pool).queryForObject("SELECT VERSION()", String.class);
        } finally {
            pool.close();
        }
    }
}
