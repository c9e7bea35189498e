package io.seatlock.lock.mysql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.lock.LockListener;
import io.seatlock.localservers.IsolatedMariaDb;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The suites' locks: each on a pool of its own, as the starter makes one, closed with the test. */
final class MySqlLocks implements AutoCloseable {

    private final List<AutoCloseable> made = new ArrayList<>();

    /** A pool whose wait for a connection is the lock's call bound, its connects and reads bounded too. */
    HikariDataSource pool(String jdbcUrl, IsolatedMariaDb database, int size, Duration callTimeout) {
        return pool(jdbcUrl, database, size, callTimeout, null);
    }

    /** As above, each connection of the pool first running {@code initSql} (when not null). */
    HikariDataSource pool(String jdbcUrl, IsolatedMariaDb database, int size, Duration callTimeout, String initSql) {
        HikariConfig config = new HikariConfig();
        config.setConnectionInitSql(initSql);
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(database.server().user());
        config.setPassword(database.server().password());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(Math.max(250, callTimeout.toMillis()));
        config.setInitializationFailTimeout(-1);
        HikariDataSource pool = new HikariDataSource(config);
        made.add(pool);
        return pool;
    }

    HikariDataSource pool(IsolatedMariaDb database) {
        return pool(database.jdbcUrl(), database, 8, Duration.ofSeconds(2));
    }

    MySqlLock lock(DataSource pool, MySqlLockSettings settings, LockListener listener) {
        MySqlLock lock = MySqlLock.over(pool, settings, listener);
        made.add(0, lock); // closed before its pool
        return lock;
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c : made) {
            c.close();
        }
        made.clear();
    }
}
