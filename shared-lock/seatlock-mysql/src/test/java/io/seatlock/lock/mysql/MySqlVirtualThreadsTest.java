package io.seatlock.lock.mysql;

import io.seatlock.lock.LockListener;
import io.seatlock.localservers.IsolatedMariaDb;
import io.seatlock.test.VirtualThreadCrowd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 1,000 virtual threads contending on five names of the MySQL lock on MariaDB (its pool of 8 connections between
 * them) each take their name once, never two holders at once, and pin no carrier thread; on Java 21 and later.
 */
class MySqlVirtualThreadsTest {

    @RegisterExtension
    static final IsolatedMariaDb database = new IsolatedMariaDb("MySqlVirtualThreadsTest");

    private final MySqlLocks locks = new MySqlLocks();

    @AfterEach
    void close() throws Exception {
        locks.close();
    }

    @Test
    void aThousandVirtualThreadsContendWithEveryPromiseKeptAndNoCarrierPinned() throws Exception {
        MySqlLock lock = locks.lock(locks.pool(database), MySqlLockSettings.defaults(), LockListener.NOOP);
        lock.createTable();
        VirtualThreadCrowd.run(lock, 1_000, 5);
    }
}
