package io.seatlock.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.localservers.LocalServers;
import io.seatlock.localservers.MariaDbServer;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.mysql.MySqlLock;
import io.seatlock.lock.mysql.MySqlLockSettings;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * Acquire + release of an uncontended lock (each thread has its own names) on MariaDB alone: seatlock's
 * {@code MySqlLock} (fencing token included), ShedLock's {@code JdbcTemplateLockProvider} with the database's time,
 * and Spring Integration's {@code JdbcLockRegistry} (the tables of their MySQL schemas), each on a HikariCP pool of its
 * own of the same size, on one database.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MySqlRoundTrip {

    public enum Impl { SEATLOCK_MYSQL, SHEDLOCK_JDBC, SPRING_INTEGRATION_JDBC }

    static final String DATABASE = "seatlock_bench";

    @Param({"SEATLOCK_MYSQL", "SHEDLOCK_JDBC", "SPRING_INTEGRATION_JDBC"})
    public Impl impl;

    private LockRoundTrip.Locker locker;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        HikariDataSource pool = pool("bench-" + impl.name().toLowerCase(), PostgresRoundTrip.POOL);
        locker = switch (impl) {
            case SEATLOCK_MYSQL -> {
                MySqlLock lock = MySqlLock.over(pool, MySqlLockSettings.defaults().withInstanceId("bench"),
                        LockListener.NOOP);
                lock.createTable();
                yield PostgresRoundTrip.seatlock(lock, () -> {
                    lock.close();
                    pool.close();
                });
            }
            case SHEDLOCK_JDBC -> PostgresRoundTrip.shedLock(pool, "CREATE TABLE IF NOT EXISTS shedlock (name "
                    + "VARCHAR(64) NOT NULL, lock_until TIMESTAMP(3) NOT NULL, locked_at TIMESTAMP(3) NOT NULL, "
                    + "locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name)) ENGINE=InnoDB");
            case SPRING_INTEGRATION_JDBC -> PostgresRoundTrip.springIntegration(pool, "CREATE TABLE IF NOT EXISTS "
                    + "INT_LOCK (LOCK_KEY CHAR(36) NOT NULL, REGION VARCHAR(100) NOT NULL, CLIENT_ID CHAR(36), "
                    + "CREATED_DATE DATETIME(6) NOT NULL, EXPIRED_AFTER DATETIME(6) NOT NULL, CONSTRAINT INT_LOCK_PK "
                    + "PRIMARY KEY (LOCK_KEY, REGION)) ENGINE=InnoDB");
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        locker.close();
    }

    @Benchmark
    public boolean acquireRelease(LockRoundTrip.Keys names) throws Exception {
        return locker.acquireRelease(names.next());
    }

    /** A pool on the benchmark's own MariaDB database. */
    static HikariDataSource pool(String name, int size) {
        MariaDbServer server = LocalServers.mariaDb();
        server.ensureDatabase(DATABASE);
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setJdbcUrl(server.jdbcUrl(DATABASE));
        config.setUsername(server.user());
        config.setPassword(server.password());
        config.setMaximumPoolSize(size);
        config.setConnectionTimeout(2_000);
        return new HikariDataSource(config);
    }
}
