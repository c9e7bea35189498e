package io.seatlock.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.seatlock.localservers.LocalServers;
import io.seatlock.localservers.PostgresServer;
import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockListener;
import io.seatlock.lock.OverlapImpact;
import io.seatlock.lock.ReleaseOutcome;
import io.seatlock.lock.postgres.PostgresLock;
import io.seatlock.lock.postgres.PostgresLockSettings;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
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
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/**
 * Acquire + release of an uncontended lock (each thread has its own names) on PostgreSQL alone: seatlock's
 * {@code PostgresLock} (fencing token included), ShedLock's {@code JdbcTemplateLockProvider} with the database's time,
 * and Spring Integration's {@code JdbcLockRegistry}, each on a HikariCP pool of its own of the same size, on one
 * database.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PostgresRoundTrip {

    public enum Impl { SEATLOCK_POSTGRES, SHEDLOCK_JDBC, SPRING_INTEGRATION_JDBC }

    static final String DATABASE = "bench_pg";
    static final Duration LEASE = Duration.ofSeconds(10);
    /** As many connections as the most threads a figure uses, and the release listener's. */
    static final int POOL = 66;

    @Param({"SEATLOCK_POSTGRES", "SHEDLOCK_JDBC", "SPRING_INTEGRATION_JDBC"})
    public Impl impl;

    private LockRoundTrip.Locker locker;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        locker = create(impl);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        locker.close();
    }

    @Benchmark
    public boolean acquireRelease(LockRoundTrip.Keys names) throws Exception {
        return locker.acquireRelease(names.next());
    }

    static HikariDataSource pool(String name) {
        return pool(name, POOL);
    }

    static HikariDataSource pool(String name, int size) {
        PostgresServer postgres = LocalServers.postgres();
        postgres.ensureDatabase(DATABASE);
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setJdbcUrl(postgres.jdbcUrl(DATABASE));
        config.setUsername(postgres.user());
        config.setPassword(postgres.password());
        config.setMaximumPoolSize(size);
        config.setConnectionTimeout(2_000);
        return new HikariDataSource(config);
    }

    static LockRoundTrip.Locker create(Impl impl) throws Exception {
        HikariDataSource pool = pool("bench-" + impl.name().toLowerCase());
        switch (impl) {
            case SEATLOCK_POSTGRES: {
                PostgresLock lock = PostgresLock.over(pool, PostgresLockSettings.defaults().withInstanceId("bench"),
                        LockListener.NOOP);
                lock.createTable();
                return seatlock(lock, () -> {
                    lock.close();
                    pool.close();
                });
            }
            case SHEDLOCK_JDBC:
                return shedLock(pool, "CREATE TABLE IF NOT EXISTS shedlock (name VARCHAR(64) NOT NULL, lock_until "
                        + "TIMESTAMP NOT NULL, locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
            case SPRING_INTEGRATION_JDBC:
                return springIntegration(pool, "CREATE TABLE IF NOT EXISTS INT_LOCK (LOCK_KEY CHAR(36) NOT NULL, REGION "
                        + "VARCHAR(100) NOT NULL, CLIENT_ID CHAR(36), CREATED_DATE TIMESTAMP NOT NULL, EXPIRED_AFTER "
                        + "TIMESTAMP NOT NULL, CONSTRAINT INT_LOCK_PK PRIMARY KEY (LOCK_KEY, REGION))");
            default:
                throw new IllegalArgumentException(impl.name());
        }
    }

    /** seatlock's try-acquire and release on {@code lock}, a fencing token carried. */
    static LockRoundTrip.Locker seatlock(DistributedLock lock, Runnable close) {
        return new LockRoundTrip.Locker() {
            public boolean acquireRelease(String name) {
                return lock.tryAcquire(name, LEASE, OverlapImpact.WASTED_WORK)
                        .map(l -> l.release() == ReleaseOutcome.RELEASED).orElse(false);
            }

            public void close() {
                close.run();
            }
        };
    }

    /** ShedLock's {@code JdbcTemplateLockProvider} with the database's time, on its table ({@code ddl}). */
    static LockRoundTrip.Locker shedLock(HikariDataSource pool, String ddl) throws Exception {
        execute(pool, ddl);
        JdbcTemplateLockProvider provider = new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration
                .builder().withJdbcTemplate(new JdbcTemplate(pool)).usingDbTime().build());
        return new LockRoundTrip.Locker() {
            public boolean acquireRelease(String name) {
                return provider.lock(new LockConfiguration(ClockProvider.now(), name, LEASE, Duration.ZERO))
                        .map(l -> {
                            l.unlock();
                            return true;
                        }).orElse(false);
            }

            public void close() {
                pool.close();
            }
        };
    }

    /** Spring Integration's {@code JdbcLockRegistry}, on its table ({@code ddl}). */
    static LockRoundTrip.Locker springIntegration(HikariDataSource pool, String ddl) throws Exception {
        execute(pool, ddl);
        DefaultLockRepository repository = new DefaultLockRepository(pool);
        repository.setRegion("bench");
        repository.setTransactionManager(new DataSourceTransactionManager(pool));
        repository.afterPropertiesSet();
        repository.afterSingletonsInstantiated();
        JdbcLockRegistry registry = new JdbcLockRegistry(repository, LEASE);
        return new LockRoundTrip.Locker() {
            public boolean acquireRelease(String name) {
                Lock lock = registry.obtain(name);
                if (!lock.tryLock()) {
                    return false;
                }
                lock.unlock();
                return true;
            }

            public void close() {
                repository.close();
                pool.close();
            }
        };
    }

    static void execute(DataSource pool, String sql) throws Exception {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
