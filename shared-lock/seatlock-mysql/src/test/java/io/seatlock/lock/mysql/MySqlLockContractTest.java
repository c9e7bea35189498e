package io.seatlock.lock.mysql;

import io.seatlock.lock.DistributedLock;
import io.seatlock.lock.LockListener;
import io.seatlock.localservers.IsolatedMariaDb;
import io.seatlock.test.DistributedLockContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** The published contract, against the MySQL lock on a real MariaDB: two replicas, each with its own pool. */
class MySqlLockContractTest extends DistributedLockContract {

    @RegisterExtension
    static final IsolatedMariaDb database = new IsolatedMariaDb("MySqlLockContractTest");

    private final MySqlLocks locks = new MySqlLocks();
    private MySqlLock lock;
    private MySqlLock otherReplica;

    @BeforeAll
    static void createTable() throws Exception {
        try (MySqlLocks setup = new MySqlLocks()) {
            setup.lock(setup.pool(database), MySqlLockSettings.defaults(), LockListener.NOOP).createTable();
        }
    }

    @BeforeEach
    void setUp() {
        lock = locks.lock(locks.pool(database), MySqlLockSettings.defaults().withInstanceId("a"), LockListener.NOOP);
        otherReplica = locks.lock(locks.pool(database), MySqlLockSettings.defaults().withInstanceId("b"),
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
        try (Connection c = database.dataSource().getConnection();
             PreparedStatement delete = c.prepareStatement("DELETE FROM seatlock_leases WHERE name = ?")) {
            delete.setString(1, name);
            delete.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
