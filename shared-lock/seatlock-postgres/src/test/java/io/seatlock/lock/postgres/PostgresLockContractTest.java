package io.seatlock.lock.postgres;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockListener;
import io.seatlock.localservers.IsolatedServers;
import io.seatlock.test.DistributedLockContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

/** The published contract, against the PostgreSQL lock on a real PostgreSQL: two replicas, each with its own pool. */
class PostgresLockContractTest extends DistributedLockContract {

    @RegisterExtension
    static final IsolatedServers servers = new IsolatedServers("PostgresLockContractTest");

    private final PostgresLocks locks = new PostgresLocks();
    private PostgresLock lock;
    private PostgresLock otherReplica;

    @BeforeAll
    static void createTable() throws Exception {
        try (PostgresLocks setup = new PostgresLocks()) {
            setup.lock(setup.pool(servers), PostgresLockSettings.defaults(), LockListener.NOOP).createTable();
        }
    }

    @BeforeEach
    void setUp() {
        lock = locks.lock(locks.pool(servers), PostgresLockSettings.defaults().withInstanceId("a"), LockListener.NOOP);
        otherReplica = locks.lock(locks.pool(servers), PostgresLockSettings.defaults().withInstanceId("b"),
                LockListener.NOOP);
    }

    @AfterEach
    void tearDown() throws Exception {
        locks.close();
    }

    @Override
    protected DistributedLock lock() {
        return lock;
    }

    @Override
    protected DistributedLock otherReplica() {
        return otherReplica;
    }


    @Override
    protected void takeAway(String name) {
        DataSource database = servers.dataSource();
        try (Connection c = database.getConnection();
             PreparedStatement delete = c.prepareStatement("DELETE FROM seatlock.leases WHERE name = ?")) {
            delete.setString(1, name);
            delete.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
