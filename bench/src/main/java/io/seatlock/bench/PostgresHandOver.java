package io.seatlock.bench;

import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.postgres.PostgresLock;
import io.seatlock.lock.postgres.PostgresLockSettings;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/**
 * Release to next holder on PostgreSQL, measured from the holder's release call to the moment the waiter holds the
 * lock: seatlock's waiting {@code acquire} (woken by the release's {@code NOTIFY}, polling with its default back-off
 * as the fallback) and Spring Integration's {@code tryLock(timeout)} (polling every 100 ms, its default). The waiter is
 * given 50 ms to be waiting before the release. ShedLock has no waiting acquire: a scheduler skips a busy lock.
 */
final class PostgresHandOver {

    private static final Duration WAITING_FOR = Duration.ofMillis(50);

    /** A holder's release and a waiter's blocking acquire of one name, each round. */
    interface Pair extends AutoCloseable {
        Runnable hold(String name) throws Exception;

        void awaitLock(String name) throws Exception;
    }

    private PostgresHandOver() {
    }

    static String run(int rounds, int warmUpRounds) throws Exception {
        StringBuilder md = new StringBuilder("| waiter | warm-up rounds | counted rounds | p50 ms | p99 ms | max ms |\n"
                + "|---|---|---|---|---|---|\n");
        try (Pair seatlock = seatlock()) {
            md.append(row("seatlock `PostgresLock.acquire(name, ttl, impact, maxWait)`", seatlock, rounds, warmUpRounds));
        }
        try (Pair integration = springIntegration()) {
            md.append(row("Spring Integration `JdbcLockRegistry` `tryLock(timeout)`", integration, rounds, warmUpRounds));
        }
        md.append("| ShedLock `JdbcTemplateLockProvider` | - | - | no waiting acquire | | |\n");
        return md.toString();
    }

    static String row(String who, Pair pair, int rounds, int warmUpRounds) throws Exception {
        double[] millis = new double[rounds];
        for (int round = -warmUpRounds; round < rounds; round++) {
            String name = "handover:" + Math.floorMod(round, 10);
            Runnable release = pair.hold(name);
            CompletableFuture<Long> holdsAt = CompletableFuture.supplyAsync(() -> {
                try {
                    pair.awaitLock(name);
                    return System.nanoTime();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(WAITING_FOR.toMillis());
            long releasedAt = System.nanoTime();
            release.run();
            long at = holdsAt.get(30, TimeUnit.SECONDS);
            if (round >= 0) {
                millis[round] = (at - releasedAt) / 1e6;
            }
        }
        Arrays.sort(millis);
        return String.format(Locale.ROOT, "| %s | %d | %d | %.2f | %.2f | %.2f |%n", who, warmUpRounds, rounds,
                millis[rounds / 2], millis[(int) Math.ceil(rounds * 0.99) - 1], millis[rounds - 1]);
    }

    private static Pair seatlock() throws Exception {
        HikariDataSource holderPool = PostgresRoundTrip.pool("handover-holder");
        HikariDataSource waiterPool = PostgresRoundTrip.pool("handover-waiter");
        PostgresLock holder = PostgresLock.over(holderPool, PostgresLockSettings.defaults().withInstanceId("holder"),
                LockListener.NOOP);
        PostgresLock waiter = PostgresLock.over(waiterPool, PostgresLockSettings.defaults().withInstanceId("waiter"),
                LockListener.NOOP);
        holder.createTable();
        return new Pair() {
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

    private static Pair springIntegration() throws Exception {
        HikariDataSource holderPool = PostgresRoundTrip.pool("handover-holder");
        HikariDataSource waiterPool = PostgresRoundTrip.pool("handover-waiter");
        JdbcLockRegistry holder = registry(holderPool);
        JdbcLockRegistry waiter = registry(waiterPool);
        return new Pair() {
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

    private static JdbcLockRegistry registry(HikariDataSource pool) throws Exception {
        PostgresRoundTrip.create(PostgresRoundTrip.Impl.SPRING_INTEGRATION_JDBC).close(); // its table
        DefaultLockRepository repository = new DefaultLockRepository(pool);
        repository.setRegion("handover");
        repository.setTransactionManager(new DataSourceTransactionManager(pool));
        repository.afterPropertiesSet();
        repository.afterSingletonsInstantiated();
        return new JdbcLockRegistry(repository, PostgresRoundTrip.LEASE);
    }
}
