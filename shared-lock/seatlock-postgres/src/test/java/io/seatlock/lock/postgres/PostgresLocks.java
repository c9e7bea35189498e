package io.seatlock.lock.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.lock.LockLease;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.LockUnavailableException;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.localservers.PostgresServer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The suites' locks: each on a pool of its own, as the starter makes one, closed with the test. */
final class PostgresLocks implements AutoCloseable {

    private final List<AutoCloseable> made = new ArrayList<>();

    /** A pool whose wait for a connection is the lock's call bound. */
    HikariDataSource pool(IsolatedServers servers, String jdbcUrl, int size, Duration callTimeout) {
        return pool(servers.postgres(), jdbcUrl, size, callTimeout);
    }

    /** A pool on {@code server}, as {@link #pool(IsolatedServers, String, int, Duration)}. */
    HikariDataSource pool(PostgresServer server, String jdbcUrl, int size, Duration callTimeout) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(server.user());
        config.setPassword(server.password());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(Math.max(250, callTimeout.toMillis()));
        config.setInitializationFailTimeout(-1);
        config.addDataSourceProperty("connectTimeout", Math.max(1, callTimeout.toSeconds()));
        HikariDataSource pool = new HikariDataSource(config);
        made.add(pool);
        return pool;
    }

    HikariDataSource pool(IsolatedServers servers) {
        return pool(servers, servers.jdbcUrl(), 8, Duration.ofSeconds(2));
    }

    PostgresLock lock(javax.sql.DataSource pool, PostgresLockSettings settings, LockListener listener) {
        PostgresLock lock = PostgresLock.over(pool, settings, listener);
        made.add(0, lock); // closed before its pool
        return lock;
    }

    /** A lease kept alive, and when its lost-lease callback ran (not when a test looked). */
    record KeptLease(LockLease lease, Duration ttl, long acquiredAt, CompletableFuture<Long> lostAt) {

        static KeptLease on(PostgresLock lock, String name, Duration ttl) {
            CompletableFuture<Long> lostAt = new CompletableFuture<>();
            long acquiredAt = System.nanoTime();
            LockLease lease = lock.tryAcquire(name, ttl, OverlapImpact.BROKEN_PROMISE).orElseThrow()
                    .keepAlive(() -> lostAt.complete(System.nanoTime()));
            return new KeptLease(lease, ttl, acquiredAt, lostAt);
        }

        /** Its callback ran before the lease's local deadline, and it is no longer valid. */
        void assertLostBeforeItsDeadline() throws Exception {
            assertThat(lostAt.get(10, TimeUnit.SECONDS) - acquiredAt).as("lost before the local deadline")
                    .isLessThan(ttl.toNanos());
            assertThat(lease.isValid()).isFalse();
        }
    }

    /** A call on {@code lock} is refused as unavailable within three call bounds. */
    static void assertUnavailableWithin(PostgresLock lock, Duration callTimeout) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> lock.tryAcquire("other", Duration.ofSeconds(30), OverlapImpact.WASTED_WORK))
                .isInstanceOf(LockUnavailableException.class).hasMessageContaining("PostgreSQL lock unavailable");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(callTimeout.multipliedBy(3));
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c : made) {
            c.close();
        }
        made.clear();
    }
}
